/**
 * A rule written once for every store: a generator that yields the steps it needs (a statement, a
 * compare-and-set) and decides on their answers; a store only executes them. better-sqlite3 answers
 * at once, inside a transaction that cannot wait; pg answers later: one rule, two drivers.
 */
import type { AttemptUpdate, LedgerSql } from './ledger-sql.js'
import type { WrittenAttempt } from './records.js'

/** An answer now (better-sqlite3) or later (pg). */
export type Maybe<T> = T | PromiseLike<T>

/** One thing a rule asks of its executor `E`. */
export type Step<E> = (executor: E) => unknown

/** A rule on executor `E` that ends with `T`. */
export type Rule<T, E> = Generator<Step<E>, T, unknown>

/** Asks `call` of the executor; `yield*` it to get the answer, typed. */
export function* ask<E, T>(call: (executor: E) => Maybe<T>): Rule<T, E> {
  return (yield call) as T
}

const isThenable = (value: unknown): value is PromiseLike<unknown> => typeof (value as { then?: unknown } | null)?.then === 'function'

/** Drives `rule` on an executor that answers at once (inside a better-sqlite3 transaction). */
export function runSync<T, E>(rule: Rule<T, E>, executor: E): T {
  let next = rule.next()
  while (!next.done) {
    const answer = next.value(executor)
    if (isThenable(answer)) throw new TypeError('a synchronous store answered a step with a promise')
    next = rule.next(answer)
  }
  return next.value
}

/** Drives `rule` on an executor that answers later (pg), one step after the other. */
export async function runAsync<T, E>(rule: Rule<T, E>, executor: E): Promise<T> {
  let next = rule.next()
  while (!next.done) next = rule.next(await next.value(executor))
  return next.value
}

/** What the ledger's rules run on: the statements' text is shared (ledger-sql.ts), `$1`, `$2`... are `values` in order. */
export interface LedgerSteps {
  /** The ledger's statements as this dialect's table built them. */
  readonly sql: LedgerSql
  /** Runs a statement; how many rows it wrote. */
  run(text: string, values?: readonly unknown[]): Maybe<number>
  /** The first row a statement returns. */
  get<Row>(text: string, values?: readonly unknown[]): Maybe<Row | undefined>
  /** Every row a statement returns. */
  all<Row>(text: string, values?: readonly unknown[]): Maybe<Row[]>
  /** A compare-and-set with its change queued, as `LedgerStore.compareAndSet` writes it, in the transaction this step runs in. */
  compareAndSet(update: AttemptUpdate): Maybe<WrittenAttempt | undefined>
}

/** A rule of the ledger. */
export type LedgerRule<T> = Rule<T, LedgerSteps>

/** Asks one step of a ledger rule. */
export const step = <T>(call: (steps: LedgerSteps) => Maybe<T>): LedgerRule<T> => ask<LedgerSteps, T>(call)

/** How many rows the statement `name` wrote. */
export const changes = (name: keyof LedgerSql, values?: readonly unknown[]) => step((s) => s.run(s.sql[name], values))

/** The first row of the statement `name`. */
export const first = <Row>(name: keyof LedgerSql, values?: readonly unknown[]) => step((s) => s.get<Row>(s.sql[name], values))

/** Every row of the statement `name`. */
export const every = <Row>(name: keyof LedgerSql, values?: readonly unknown[]) => step((s) => s.all<Row>(s.sql[name], values))

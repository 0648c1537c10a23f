/** How the SQLite store runs the shared rules: on one better-sqlite3 connection, every answer at once. */
import type Database from 'better-sqlite3'
import { attemptOf, type AttemptRow } from '../store/ledger-rows.js'
import { type AttemptUpdate, casUpdate, ledgerSql } from '../store/ledger-sql.js'
import type { MigrationSteps } from '../store/migrate.js'
import type { WrittenAttempt } from '../store/records.js'
import type { LedgerDriver } from '../store/sql-ledger-store.js'
import { type LedgerSteps, runSync } from '../store/steps.js'
import type { GroupCommit } from '@card-jwe/sqlite-group-commit'

/** SQLite in the dialect table: a write transaction (BEGIN IMMEDIATE) holds the database's write lock, so no row lock. */
const SQL = ledgerSql({ lockForCommit: '' })

// The outbox entry a compare-and-set queues, read back by id; SQLite has no data-modifying WITH to do it in one statement.
const QUEUE = 'INSERT INTO outbox (order_id, change, next_try_at) VALUES ($1, $2, $3) RETURNING id'
const UNDELIVERED_OF_ORDER = 'SELECT 1 AS found FROM outbox WHERE order_id = $1 LIMIT 1'

/** `$1`, `$2`... are named parameters to better-sqlite3: bound by their numbers. */
function bound(values: readonly unknown[]): Record<number, unknown> {
  const named: Record<number, unknown> = {}
  for (let i = 0; i < values.length; i++) named[i + 1] = values[i]
  return named
}

/** The ledger's steps on one connection. */
export interface SqliteSteps extends LedgerSteps {
  run(text: string, values?: readonly unknown[]): number
  get<Row>(text: string, values?: readonly unknown[]): Row | undefined
  all<Row>(text: string, values?: readonly unknown[]): Row[]
  compareAndSet(update: AttemptUpdate): WrittenAttempt | undefined
}

export function sqliteSteps(db: Database.Database): SqliteSteps {
  // Prepared on first use and kept: a compare-and-set's text follows its patch's fields, a few shapes in all.
  const statements = new Map<string, Database.Statement>()
  const prepared = (text: string): Database.Statement => {
    let statement = statements.get(text)
    if (statement === undefined) {
      statement = db.prepare(text)
      statements.set(text, statement)
    }
    return statement
  }
  const steps: SqliteSteps = {
    sql: SQL,
    run: (text, values = []) => prepared(text).run(bound(values)).changes,
    get: <Row>(text: string, values: readonly unknown[] = []) => prepared(text).get(bound(values)) as Row | undefined,
    all: <Row>(text: string, values: readonly unknown[] = []) => prepared(text).all(bound(values)) as Row[],
    compareAndSet(update) {
      const { text, values } = casUpdate(update)
      const row = steps.get<AttemptRow>(text, values)
      if (!row) return undefined
      const { change, patch } = update
      if (!change) return attemptOf(row)
      // Read before the insert: any undelivered change of the order there is earlier than this one.
      const behindEarlier = steps.get(UNDELIVERED_OF_ORDER, [change.orderId]) !== undefined
      const queued = steps.get<{ id: number }>(QUEUE, [change.orderId, JSON.stringify(change), patch.updatedAt])!
      const entry = { id: Number(queued.id), change, tries: 0, nextTryAt: patch.updatedAt }
      return { ...attemptOf(row), queued: { entry, behindEarlier } }
    },
  }
  return steps
}

const isConstraintError = (error: unknown) => (error as { code?: string })?.code?.startsWith('SQLITE_CONSTRAINT') === true

/** Reads wait for the commits before them to be on disk; writes share group commits (@card-jwe/sqlite-group-commit). */
export function sqliteDriver(steps: SqliteSteps, commits: GroupCommit): LedgerDriver {
  return {
    read: (rule) => commits.read(() => runSync(rule, steps)),
    writeOne: (rule) => commits.writeOne(() => runSync(rule, steps)),
    // DO NOTHING covers a row there already; another constraint that refuses one (NOT NULL, a foreign key)
    // answers false too, as this store always did.
    insert: (rule) =>
      commits.writeOne(() => {
        try {
          return runSync(rule, steps)
        } catch (error) {
          if (isConstraintError(error)) return false
          throw error
        }
      }),
    write: (rule) => commits.write(() => runSync(rule, steps)),
  }
}

/** The migration runner's steps on `db`. */
export function sqliteMigrationSteps(db: Database.Database): MigrationSteps {
  const steps: MigrationSteps = {
    exec: (script) => db.exec(script),
    get: <Row>(text: string, values: readonly unknown[] = []) => db.prepare(text).get(bound(values)) as Row | undefined,
    run: (text, values = []) => db.prepare(text).run(bound(values)),
    // IMMEDIATE: the write lock from the start, so two processes opening one file wait for each other (busy_timeout).
    transaction: (rule) => db.transaction(() => runSync(rule, steps)).immediate(),
  }
  return steps
}

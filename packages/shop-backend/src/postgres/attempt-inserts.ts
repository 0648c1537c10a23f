import type pg from 'pg'
import { rowOfAttempt } from '../lib/ledger-rows.js'
import type { AttemptRecord } from '../store.js'
import { prepared } from './prepared.js'

/** The attempts table's columns with their PostgreSQL types (for the arrays a group is sent as). */
const COLUMNS = [
  ['id', 'text'],
  ['order_id', 'text'],
  ['number', 'integer'],
  ['idempotency_key', 'text'],
  ['state', 'text'],
  ['version', 'integer'],
  ['currency', 'text'],
  ['value', 'bigint'],
  ['method_type', 'text'],
  ['fingerprint', 'text'],
  ['result_code', 'text'],
  ['psp_reference', 'text'],
  ['answer', 'text'],
  ['details_step', 'integer'],
  ['details_key', 'text'],
  ['details_fingerprint', 'text'],
  ['error_code', 'text'],
  ['captured_value', 'bigint'],
  ['refunded_value', 'bigint'],
  ['created_at', 'text'],
  ['updated_at', 'text'],
] as const

const NAMES = COLUMNS.map(([name]) => name).join(', ')

// ON CONFLICT DO NOTHING: an attempt whose id, key or (order, number) exists is not stored; the caller reads that as a lost race.
const INSERT_ONE = `INSERT INTO attempts (${NAMES}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}) ON CONFLICT DO NOTHING`
// A group as one statement, one array a column: one round trip and one commit for every attempt in it.
const ARRAYS = COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')
const INSERT_GROUP = `INSERT INTO attempts (${NAMES}) SELECT * FROM unnest(${ARRAYS}) ON CONFLICT DO NOTHING RETURNING id`

/** The attempt's row in COLUMNS' order. */
function valuesOf(a: AttemptRecord): unknown[] {
  const row = rowOfAttempt(a)
  return COLUMNS.map(([name]) => row[name])
}

interface QueuedInsert {
  readonly attempt: AttemptRecord
  readonly resolve: (stored: boolean) => void
  readonly reject: (error: unknown) => void
}

/**
 * `insertAttempt` for the pool, in groups: the attempts asked for while a group is being written go
 * together as the next one. Every payment's first write is an attempt insert, so under load this is
 * one statement and one commit for many payments instead of one each. A caller still learns only of
 * its own attempt, and only after the commit:
 * - two attempts with the same id, key or (order, number) never share a group (the later waits for
 *   the next), so each is judged against what is committed;
 * - the rows are sorted by id, so two instances' groups of the ledger's attempts (id = order and
 *   number, a fresh random key) take their locks in one order; a deadlock between other rows is
 *   broken by PostgreSQL and the group sent again as below;
 * - a group that fails (a row PostgreSQL refuses, a lost connection) is sent again one attempt a
 *   statement, so each caller gets its own answer or error (a group that committed before its
 *   connection broke reads as lost races: each caller then finds its attempt, key and all, stored).
 */
export function createAttemptInserts(pool: pg.Pool): {
  insert(attempt: AttemptRecord): Promise<boolean>
  /** Resolves once every insert asked for so far is answered (for `close`). */
  settled(): Promise<void>
} {
  let queue: QueuedInsert[] = []
  let writing: Promise<void> | undefined

  async function insertOne(attempt: AttemptRecord): Promise<boolean> {
    return (await pool.query(prepared(INSERT_ONE, valuesOf(attempt)))).rowCount === 1
  }

  /** The next group from the queue: no two of it share an id, a key or an (order, number). */
  function takeGroup(): QueuedInsert[] {
    const group: QueuedInsert[] = []
    const rest: QueuedInsert[] = []
    const taken = new Set<string>()
    for (const item of queue) {
      const { id, idempotencyKey, orderId, number } = item.attempt
      const keys = [`id ${id}`, `key ${idempotencyKey}`, `order ${orderId} ${number}`]
      if (keys.some((k) => taken.has(k))) rest.push(item)
      else {
        for (const k of keys) taken.add(k)
        group.push(item)
      }
    }
    queue = rest
    return group.sort((a, b) => (a.attempt.id < b.attempt.id ? -1 : a.attempt.id > b.attempt.id ? 1 : 0))
  }

  async function writeGroup(group: readonly QueuedInsert[]): Promise<void> {
    if (group.length === 1) {
      const [item] = group as [QueuedInsert]
      await insertOne(item.attempt).then(item.resolve, item.reject)
      return
    }
    try {
      const rows = group.map((item) => valuesOf(item.attempt))
      const columns = COLUMNS.map((_, i) => rows.map((row) => row[i]))
      const result = await pool.query<{ id: string }>(prepared(INSERT_GROUP, columns))
      const stored = new Set(result.rows.map((row) => row.id))
      for (const item of group) item.resolve(stored.has(item.attempt.id))
    } catch {
      // Failed as a whole (a bad row, a deadlock): one at a time, so it fails alone. If the commit went
      // through and only its answer was lost, each insert now reads as a lost race (see above).
      await Promise.all(group.map((item) => insertOne(item.attempt).then(item.resolve, item.reject)))
    }
  }

  async function writeAll(): Promise<void> {
    // setImmediate: after this turn's I/O callbacks, so the attempts they ask for join the group.
    await new Promise((resolve) => setImmediate(resolve))
    try {
      while (queue.length > 0) await writeGroup(takeGroup())
    } finally {
      writing = undefined
    }
  }

  return {
    insert: (attempt) =>
      new Promise<boolean>((resolve, reject) => {
        queue.push({ attempt, resolve, reject })
        writing ??= writeAll()
      }),
    settled: async () => {
      await writing
    },
  }
}

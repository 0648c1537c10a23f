import type pg from 'pg'
import { rowOfAttempt } from '../lib/ledger-rows.js'
import type { AttemptRecord } from '../store.js'
import { ATTEMPT_COLUMNS as COLUMNS } from './attempt-columns.js'
import { prepared } from './prepared.js'
import { createStatementGroups } from './statement-groups.js'

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

/**
 * `insertAttempt` for the pool, in groups (`createStatementGroups`). Every payment's first write is
 * an attempt insert, so under load this is one statement and one commit for many payments. Two
 * attempts with the same id, key or (order, number) never share a group; rows go in id order, so two
 * instances' groups of the ledger's attempts (id = order and number, a fresh random key) take their
 * locks in one order.
 */
export function createAttemptInserts(
  pool: pg.Pool,
  log: (line: string) => void,
): {
  insert(attempt: AttemptRecord): Promise<boolean>
  settled(): Promise<void>
} {
  const groups = createStatementGroups<AttemptRecord, boolean>(
    {
      what: 'attempt inserts',
      keysOf: (a) => [`id ${a.id}`, `key ${a.idempotencyKey}`, `order ${a.orderId} ${a.number}`],
      orderOf: (a) => a.id,
      one: async (a) => (await pool.query(prepared(INSERT_ONE, valuesOf(a)))).rowCount === 1,
      async many(attempts) {
        const rows = attempts.map(valuesOf)
        const columns = COLUMNS.map((_, i) => rows.map((row) => row[i]))
        const stored = new Set((await pool.query<{ id: string }>(prepared(INSERT_GROUP, columns))).rows.map((row) => row.id))
        return attempts.map((a) => stored.has(a.id))
      },
    },
    log,
  )
  return { insert: groups.run, settled: groups.settled }
}

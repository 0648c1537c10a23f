import type pg from 'pg'
import { rowOfAttempt } from '../lib/ledger-rows.js'
import type { AttemptRecord } from '../store.js'
import { ATTEMPT_COLUMNS as COLUMNS } from './attempt-columns.js'
import { prepared } from './prepared.js'

/** The attempts table's columns, in COLUMNS' order, for an INSERT's column list. */
export const ATTEMPT_NAMES = COLUMNS.map(([name]) => name).join(', ')

// ON CONFLICT DO NOTHING: an attempt whose id, key or (order, number) exists is not stored; the caller reads that as a lost race.
const PLACEHOLDERS = COLUMNS.map((_, i) => `$${i + 1}`).join(', ')
const INSERT_ONE = `INSERT INTO attempts (${ATTEMPT_NAMES}) VALUES (${PLACEHOLDERS}) ON CONFLICT DO NOTHING`

/** The attempt's row in COLUMNS' order. */
function valuesOf(a: AttemptRecord): unknown[] {
  const row = rowOfAttempt(a)
  return COLUMNS.map(([name]) => row[name])
}

/** One attempt insert as its own statement; true when it was stored. */
export async function insertAttempt(db: pg.Pool | pg.PoolClient, a: AttemptRecord): Promise<boolean> {
  return (await db.query(prepared(INSERT_ONE, valuesOf(a)))).rowCount === 1
}

/** Attempts as one array a column, in COLUMNS' order: the parameters of a group's insert (`unnest`). */
export function insertColumnsOf(attempts: readonly AttemptRecord[]): unknown[][] {
  const rows = attempts.map(valuesOf)
  return COLUMNS.map((_, i) => rows.map((row) => row[i]))
}

import type pg from 'pg'
import { ATTEMPT_COLUMNS as NAMES, columnList, rowOfAttempt, valuesOf } from '../store/ledger-rows.js'
import type { AttemptRecord } from '../store/records.js'
import { prepared } from './prepared.js'
import { SQL } from './sql.js'

/** The attempts table's columns, in the shared order, for an INSERT's column list. */
export const ATTEMPT_NAMES = columnList(NAMES)

/** The attempt's row in the shared column order. */
const valuesOfAttempt = (a: AttemptRecord): unknown[] => valuesOf(rowOfAttempt(a), NAMES)

/** One attempt insert as its own statement; true when it was stored (ON CONFLICT DO NOTHING: a lost race is false). */
export async function insertAttempt(db: pg.Pool | pg.PoolClient, a: AttemptRecord): Promise<boolean> {
  return (await db.query(prepared(SQL.insertAttempt, valuesOfAttempt(a)))).rowCount === 1
}

/** Attempts as one array a column, in the shared order: the parameters of a group's insert (`unnest`). */
export function insertColumnsOf(attempts: readonly AttemptRecord[]): unknown[][] {
  const rows = attempts.map(valuesOfAttempt)
  return NAMES.map((_, i) => rows.map((row) => row[i]))
}

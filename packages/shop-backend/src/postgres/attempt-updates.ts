import type pg from 'pg'
import { attemptOf, type AttemptRow, PATCH_FIELDS, patchWrites, storedPatchValue } from '../store/ledger-rows.js'
import { type AttemptUpdate, casUpdate } from '../store/ledger-sql.js'
import type { WrittenAttempt } from '../store/records.js'
import { ATTEMPT_COLUMN_TYPES } from './attempt-columns.js'
import { prepared } from './prepared.js'

/** One compare-and-set as its own statement, on whichever connection (a transaction's, or the pool). */
export async function casAttempt(db: pg.Pool | pg.PoolClient, update: AttemptUpdate): Promise<WrittenAttempt | undefined> {
  const { text: set, values } = casUpdate(update)
  const { change, patch } = update
  if (!change) {
    const row = (await db.query<AttemptRow>(prepared(set, values))).rows[0]
    return row && attemptOf(row)
  }
  // One statement, so one round trip and one commit: the change is queued only if the update matched.
  // The outbox read beside the insert sees the table as it was before it: any row there is earlier.
  values.push(change.orderId, JSON.stringify(change), patch.updatedAt)
  const n = values.length
  const row = (
    await db.query<QueuedRow>(
      prepared(
        `WITH updated AS (${set}),
          queued AS (INSERT INTO outbox (order_id, change, next_try_at) SELECT $${n - 2}::text, $${n - 1}::text, $${n}::text FROM updated
            RETURNING id)
        SELECT updated.*, (SELECT id FROM queued) AS queued_id,
          EXISTS (SELECT 1 FROM outbox e WHERE e.order_id = $${n - 2}::text) AS queued_behind
        FROM updated`,
        values,
      ),
    )
  ).rows[0]
  return row && writtenOf(row, update)
}

/** An updated row, with the outbox entry its change was queued as (none without a change). */
export type QueuedRow = AttemptRow & { queued_id: string | null; queued_behind: boolean | null }

/** The attempt as written and, when the update queued its change, that entry. */
export function writtenOf(row: QueuedRow, update: AttemptUpdate): WrittenAttempt {
  const attempt = attemptOf(row)
  if (row.queued_id === null || !update.change) return attempt
  const entry = { id: Number(row.queued_id), change: update.change, tries: 0, nextTryAt: update.patch.updatedAt }
  return { ...attempt, queued: { entry, behindEarlier: row.queued_behind === true } }
}

/** A patch column's PostgreSQL type; a column without one is a mistake found when the module loads. */
function typeOf(column: string): string {
  const type = ATTEMPT_COLUMN_TYPES.get(column)
  if (type === undefined) throw new TypeError(`attempt-updates: no type for the column ${column}`)
  return type
}

// In a group's statement (ledger-writes.ts) an update is one element of each of these arrays: its id,
// expected version, which patch fields it writes as bits, each patch column, and the change queued as
// casAttempt queues it; so patches of different shapes share one prepared statement.
if (PATCH_FIELDS.length > 30) throw new TypeError('attempt-updates: more patch fields than bits in an integer')
export const UPDATE_INPUT: ReadonlyArray<readonly [string, string]> = [
  ['id', 'text'],
  ['expected', 'integer'],
  ['writes', 'integer'],
  ...PATCH_FIELDS.map(([, column]) => [column, typeOf(column)] as const),
  ['change_order_id', 'text'],
  ['change', 'text'],
  ['change_at', 'text'],
]
export const UPDATE_SETS = PATCH_FIELDS.map(([, c], bit) => `${c} = CASE WHEN i.writes & ${1 << bit} <> 0 THEN i.${c} ELSE a.${c} END`)

/** The group's arrays, in UPDATE_INPUT's order. */
export function updateColumnsOf(updates: readonly AttemptUpdate[]): unknown[][] {
  return [
    updates.map((u) => u.id),
    updates.map((u) => u.expectedVersion),
    updates.map((u) => PATCH_FIELDS.reduce((bits, [key], bit) => (patchWrites(u.patch, key) ? bits | (1 << bit) : bits), 0)),
    ...PATCH_FIELDS.map(([key]) => updates.map((u) => (patchWrites(u.patch, key) ? storedPatchValue(u.patch, key) : null))),
    updates.map((u) => u.change?.orderId ?? null),
    updates.map((u) => (u.change ? JSON.stringify(u.change) : null)),
    updates.map((u) => (u.change ? u.patch.updatedAt : null)),
  ]
}

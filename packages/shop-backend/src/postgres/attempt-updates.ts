import type pg from 'pg'
import { attemptOf, type AttemptRow, PATCH_FIELDS, patchWrites, storedPatchValue } from '../lib/ledger-rows.js'
import type { AttemptPatch, OrderChange, WrittenAttempt } from '../store.js'
import { ATTEMPT_COLUMN_TYPES } from './attempt-columns.js'
import { prepared } from './prepared.js'
import { createStatementGroups } from './statement-groups.js'

/** A compare-and-set: `patch` is written only while the attempt is at `expectedVersion`; `change` is queued with it. */
export interface AttemptUpdate {
  readonly id: string
  readonly expectedVersion: number
  readonly patch: AttemptPatch
  readonly change?: OrderChange | undefined
}

/** One compare-and-set as its own statement, on whichever connection (a transaction's, or the pool). */
export async function casAttempt(db: pg.Pool | pg.PoolClient, update: AttemptUpdate): Promise<WrittenAttempt | undefined> {
  const { id, expectedVersion, patch, change } = update
  const sets: string[] = []
  const values: unknown[] = [id, expectedVersion]
  for (const [key, column] of PATCH_FIELDS) {
    if (!patchWrites(patch, key)) continue
    values.push(storedPatchValue(patch, key))
    sets.push(`${column} = $${values.length}`)
  }
  const set = `UPDATE attempts SET ${[...sets, 'version = version + 1'].join(', ')} WHERE id = $1 AND version = $2 RETURNING *`
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
type QueuedRow = AttemptRow & { queued_id: string | null; queued_behind: boolean | null }

/** The attempt as written and, when the update queued its change, that entry. */
function writtenOf(row: QueuedRow, update: AttemptUpdate): WrittenAttempt {
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

// A group as one statement: one array a field (id, expected version, which patch fields it writes as
// bits, each patch column, the change queued as casAttempt queues it), so patches of different shapes
// share one prepared statement.
if (PATCH_FIELDS.length > 30) throw new TypeError('attempt-updates: more patch fields than bits in an integer')
const INPUT: ReadonlyArray<readonly [string, string]> = [
  ['id', 'text'],
  ['expected', 'integer'],
  ['writes', 'integer'],
  ...PATCH_FIELDS.map(([, column]) => [column, typeOf(column)] as const),
  ['change_order_id', 'text'],
  ['change', 'text'],
  ['change_at', 'text'],
]
const SETS = PATCH_FIELDS.map(([, c], bit) => `${c} = CASE WHEN i.writes & ${1 << bit} <> 0 THEN i.${c} ELSE a.${c} END`)
const UPDATE_GROUP = `WITH input AS (
    SELECT * FROM unnest(${INPUT.map(([, type], k) => `$${k + 1}::${type}[]`).join(', ')})
      AS i(${INPUT.map(([name]) => name).join(', ')})
  ),
  updated AS (
    UPDATE attempts a SET ${[...SETS, 'version = a.version + 1'].join(', ')}
    FROM input i WHERE a.id = i.id AND a.version = i.expected
    RETURNING a.*, i.change_order_id AS queued_order_id, i.change AS queued_change, i.change_at AS queued_at
  ),
  queued AS (INSERT INTO outbox (order_id, change, next_try_at) SELECT queued_order_id, queued_change, queued_at FROM updated
    WHERE queued_change IS NOT NULL RETURNING id, order_id)
  SELECT u.*, q.id AS queued_id, EXISTS (SELECT 1 FROM outbox e WHERE e.order_id = q.order_id) AS queued_behind
  FROM updated u LEFT JOIN queued q ON q.order_id = u.queued_order_id`

/** The group's arrays, in INPUT's order. */
function columnsOf(updates: readonly AttemptUpdate[]): unknown[][] {
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

/**
 * `compareAndSet` for the pool, in groups (`createStatementGroups`): every payment's answer is one,
 * so under load this is one statement and one commit for many payments. Two updates of one attempt,
 * or two changes of one order, never share a group: each is judged against what is committed, and an
 * order's changes reach the outbox in the order asked. Rows go in id order, and the plan seen (a
 * nested loop over them, an index scan each) locks in that order. Another plan, or the poller's
 * transaction (feed order), can still deadlock with a group: PostgreSQL breaks it (after
 * `deadlock_timeout`, 1 s by default, while the other compare-and-sets of this process wait behind
 * the group) and the group is sent again one update a statement.
 */
export function createAttemptUpdates(
  pool: pg.Pool,
  log: (line: string) => void,
): {
  update(update: AttemptUpdate): Promise<WrittenAttempt | undefined>
  settled(): Promise<void>
} {
  const groups = createStatementGroups<AttemptUpdate, WrittenAttempt | undefined>(
    {
      what: 'compare-and-sets',
      keysOf: (u) => (u.change ? [`id ${u.id}`, `order ${u.change.orderId}`] : [`id ${u.id}`]),
      orderOf: (u) => u.id,
      one: (u) => casAttempt(pool, u),
      async many(updates) {
        const rows = (await pool.query<QueuedRow>(prepared(UPDATE_GROUP, columnsOf(updates)))).rows
        const written = new Map(rows.map((row) => [row.id, row]))
        return updates.map((u) => {
          const row = written.get(u.id)
          return row && writtenOf(row, u)
        })
      },
    },
    log,
  )
  return { update: groups.run, settled: groups.settled }
}

/**
 * The ledger's statements, written once for both SQL stores: `$1`, `$2`... are the values in order
 * (pg binds them by position, better-sqlite3 by name). Where the dialects differ, the small table
 * below says how; a statement only one dialect can run (pg's `unnest` groups) stays in its folder.
 */
import { DISMISSED_DELIVERY_COLUMNS, DISMISSED_PROBLEM_COLUMNS } from './dismissed.js'
import {
  ATTEMPT_COLUMNS,
  columnList,
  MODIFICATION_COLUMNS,
  OUTBOX_COLUMNS,
  PATCH_FIELDS,
  PROBLEM_COLUMNS,
  patchWrites,
  storedPatchValue,
} from './ledger-rows.js'
import { OPEN_ATTEMPT_PREDICATE, OPEN_MODIFICATION_PREDICATE } from './portable-migrations.js'
import type { AttemptPatch, OrderChange } from './records.js'
import { HOLDING_MONEY } from '../ledger/transitions.js'

/** What a dialect says where the SQL differs. */
export interface SqlDialect {
  /** Added to a read whose row must stay as read until the commit (PostgreSQL: ` FOR UPDATE`; SQLite holds the write lock). */
  readonly lockForCommit: string
}

/** An insert of a whole row; a row that is there already (by any unique key) is left as it is. */
const insertOf = (table: string, columns: readonly string[]): string =>
  `INSERT INTO ${table} (${columnList(columns)}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) ON CONFLICT DO NOTHING`

const LEASE = 'SELECT name, holder, expires_at FROM leases WHERE name = $1'

// Columns by name, never `*`: PostgreSQL refuses a prepared plan whose columns changed ("cached plan
// must not change result type") when a newer instance adds one.
const ATTEMPT = columnList(ATTEMPT_COLUMNS)
const MODIFICATION = columnList(MODIFICATION_COLUMNS)
const PROBLEM = columnList(PROBLEM_COLUMNS)
const OUTBOX = columnList(OUTBOX_COLUMNS)
const DISMISSED_PROBLEM = columnList(DISMISSED_PROBLEM_COLUMNS)
const DISMISSED_DELIVERY = columnList(DISMISSED_DELIVERY_COLUMNS)
/** Attempt `row` holds the shopper's money: the states of `HOLDING_MONEY`, as SQL. */
const holdsMoney = (row: string) => `${row}.state IN (${[...HOLDING_MONEY].map((state) => `'${state}'`).join(', ')})`

/** The statements in one dialect, built once per store module. */
export function ledgerSql(dialect: SqlDialect) {
  return Object.freeze({
    getSetting: 'SELECT value FROM settings WHERE id = $1',
    putSetting: 'INSERT INTO settings (id, value) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET value = excluded.value',
    replaceSetting: 'UPDATE settings SET value = $3 WHERE id = $1 AND value = $2',
    insertAttempt: insertOf('attempts', ATTEMPT_COLUMNS),
    findAttempt: `SELECT ${ATTEMPT} FROM attempts WHERE id = $1`,
    findAttemptByPspReference: `SELECT ${ATTEMPT} FROM attempts WHERE psp_reference = $1`,
    listAttempts: `SELECT ${ATTEMPT} FROM attempts WHERE order_id = $1 ORDER BY number`,
    // One row at most: a COUNT of the whole table would read all of it.
    anyAttempt: 'SELECT COUNT(*) AS n FROM (SELECT 1 FROM attempts LIMIT 1) AS one',
    // Payments whose outcome is open since before $1, oldest first: read through the attempts_open index.
    openAttempts: `SELECT ${ATTEMPT} FROM attempts WHERE ${OPEN_ATTEMPT_PREDICATE} AND updated_at < $1 ORDER BY updated_at, id LIMIT $2`,
    openAttemptCount: `SELECT COUNT(*) AS n FROM attempts WHERE ${OPEN_ATTEMPT_PREDICATE} AND updated_at < $1`,
    // Orders paid twice, their attempts holding money by order and number. Such an order has a later attempt
    // holding money with an earlier one beside it: found through attempts_later first (MATERIALIZED: PostgreSQL
    // otherwise walks every paid attempt), then each order's attempts by its index.
    paidTwice: `WITH twice AS MATERIALIZED (SELECT DISTINCT l.order_id FROM attempts l WHERE l.number > 1 AND ${holdsMoney('l')}
        AND EXISTS (SELECT 1 FROM attempts e WHERE e.order_id = l.order_id AND e.number < l.number AND ${holdsMoney('e')}))
      SELECT ${columnList(ATTEMPT_COLUMNS, 'a')} FROM twice t JOIN attempts a ON a.order_id = t.order_id
      WHERE ${holdsMoney('a')} ORDER BY a.order_id, a.number LIMIT $1`,
    insertModification: insertOf('modifications', MODIFICATION_COLUMNS),
    findModification: `SELECT ${MODIFICATION} FROM modifications WHERE id = $1`,
    listModifications: `SELECT ${MODIFICATION} FROM modifications WHERE attempt_id = $1 ORDER BY created_at, id`,
    // Captures, refunds and cancels unanswered since before $1, oldest first: read through the modifications_open index.
    openModifications: `SELECT ${MODIFICATION} FROM modifications WHERE ${OPEN_MODIFICATION_PREDICATE} AND updated_at < $1
      ORDER BY updated_at, id LIMIT $2`,
    openModificationCount: `SELECT COUNT(*) AS n FROM modifications WHERE ${OPEN_MODIFICATION_PREDICATE} AND updated_at < $1`,
    updateModification: `UPDATE modifications SET state = $3, psp_reference = COALESCE($4, psp_reference), error_code = $5,
      updated_at = $6, sent_again_at = COALESCE($7, sent_again_at), version = version + 1
      WHERE id = $1 AND version = $2 RETURNING ${MODIFICATION}`,
    readCursor: 'SELECT cursor FROM poll_state WHERE id = 1',
    // Never back: a smaller cursor leaves the row as it is.
    moveCursor: `INSERT INTO poll_state (id, cursor) VALUES (1, $1)
      ON CONFLICT (id) DO UPDATE SET cursor = excluded.cursor WHERE poll_state.cursor < excluded.cursor`,
    markSeen: 'INSERT INTO seen_changes (sequence, seen_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    unmarkSeen: 'DELETE FROM seen_changes WHERE sequence = $1',
    // Of the 500 lowest sequences that are no problem's (a dismissed one's mark is kept for good, an open one's
    // while open), those seen before $1 and behind the cursor: a read from the index's start, past the kept marks.
    forgetSeen: `DELETE FROM seen_changes WHERE sequence IN (SELECT s.sequence FROM seen_changes s
        WHERE NOT EXISTS (SELECT 1 FROM poll_problems p WHERE p.sequence = s.sequence)
          AND NOT EXISTS (SELECT 1 FROM dismissed_problems d WHERE d.sequence = s.sequence)
        ORDER BY s.sequence LIMIT 500)
      AND seen_at < $1 AND sequence <= (SELECT cursor FROM poll_state WHERE id = 1)`,
    // Not for a dismissed sequence: a retry planned before the dismissal must not open it again.
    recordProblem: `INSERT INTO poll_problems (sequence, change, reason, tries, next_try_at)
      SELECT CAST($1 AS BIGINT), CAST($2 AS TEXT), CAST($3 AS TEXT), 1, CAST($4 AS TEXT)
      WHERE NOT EXISTS (SELECT 1 FROM dismissed_problems d WHERE d.sequence = $1)
      ON CONFLICT (sequence) DO UPDATE SET reason = excluded.reason, change = excluded.change, tries = poll_problems.tries + 1,
      next_try_at = excluded.next_try_at`,
    resolveProblem: 'DELETE FROM poll_problems WHERE sequence = $1',
    dropDismissedProblem:
      'DELETE FROM poll_problems WHERE sequence = $1 AND EXISTS (SELECT 1 FROM dismissed_problems d WHERE d.sequence = $1)',
    allProblems: `SELECT ${PROBLEM} FROM poll_problems ORDER BY sequence`,
    dueProblems: `SELECT ${PROBLEM} FROM poll_problems WHERE next_try_at <= $1 ORDER BY sequence`,
    // An order's change waits while an earlier one of it waits for its next try: the shop hears them in order.
    dueOutbox: `SELECT ${OUTBOX} FROM outbox o WHERE o.delivered_at IS NULL AND o.next_try_at <= $1 AND NOT EXISTS (
      SELECT 1 FROM outbox e WHERE e.order_id = o.order_id AND e.id < o.id AND e.delivered_at IS NULL AND e.next_try_at > $1)
      ORDER BY o.id LIMIT $2`,
    // Every undelivered change, due or waiting for its next try: a backlog that only grows is a shop not hearing.
    outboxBacklog: 'SELECT COUNT(*) AS n FROM outbox WHERE delivered_at IS NULL',
    // Delivered changes go: the attempts keep the history, and the outbox stays a few pages.
    delivered: 'DELETE FROM outbox WHERE id = $1',
    deliveryFailed: 'UPDATE outbox SET tries = tries + 1, next_try_at = $2 WHERE id = $1',
    // One statement, so two takers cannot both win: free, expired at `now` ($4, as `leaseExpired` says), or a renewal.
    takeLease: `INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3)
      ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
      WHERE leases.holder = excluded.holder OR leases.expires_at <= $4`,
    readLease: LEASE,
    // A taker waits for the commit of the write that read it, and that write sees any take before it.
    leaseForCommit: `${LEASE}${dialect.lockForCommit}`,
    releaseLease: 'DELETE FROM leases WHERE name = $1 AND holder = $2',
    // The admin's view and hands: what waits, tried again now, or dismissed (kept in dismissed_*).
    undeliveredOutbox: `SELECT ${OUTBOX} FROM outbox WHERE delivered_at IS NULL AND id >= $2 ORDER BY id LIMIT $1`,
    outboxEntry: 'SELECT id FROM outbox WHERE id = $1 AND delivered_at IS NULL',
    outboxEntryForCommit: `SELECT id FROM outbox WHERE id = $1 AND delivered_at IS NULL${dialect.lockForCommit}`,
    // The entry and its order's earlier undelivered ones: due now, so the shop still hears them in order.
    deliverNow: `UPDATE outbox SET next_try_at = $2 WHERE delivered_at IS NULL AND next_try_at > $2 AND id <= $1
      AND order_id = (SELECT order_id FROM outbox WHERE id = $1)`,
    keepDismissedDelivery: `INSERT INTO dismissed_deliveries (id, order_id, change, tries, dismissed_at)
      SELECT id, order_id, change, tries, CAST($2 AS TEXT) FROM outbox WHERE id = $1 AND delivered_at IS NULL ON CONFLICT DO NOTHING`,
    keepDismissedProblem: `INSERT INTO dismissed_problems (sequence, change, reason, tries, dismissed_at)
      SELECT sequence, change, reason, tries, CAST($2 AS TEXT) FROM poll_problems WHERE sequence = $1
      ON CONFLICT (sequence) DO UPDATE SET change = excluded.change, reason = excluded.reason, tries = excluded.tries,
      dismissed_at = excluded.dismissed_at`,
    dismissedProblems: `SELECT ${DISMISSED_PROBLEM} FROM dismissed_problems ORDER BY dismissed_at DESC, sequence DESC LIMIT $1`,
    dismissedDeliveries: `SELECT ${DISMISSED_DELIVERY} FROM dismissed_deliveries ORDER BY dismissed_at DESC, id DESC LIMIT $1`,
  })
}

/** The ledger's statements in one dialect. */
export type LedgerSql = ReturnType<typeof ledgerSql>

/** A compare-and-set: `patch` is written only while the attempt is at `expectedVersion`; `change` is queued with it. */
export interface AttemptUpdate {
  readonly id: string
  readonly expectedVersion: number
  readonly patch: AttemptPatch
  readonly change?: OrderChange | undefined
}

/** A compare-and-set's UPDATE of the fields its patch writes (`$1` the id, `$2` the version expected), returning the row. */
export function casUpdate(update: AttemptUpdate): { readonly text: string; readonly values: unknown[] } {
  const sets: string[] = []
  const values: unknown[] = [update.id, update.expectedVersion]
  for (const [key, column] of PATCH_FIELDS) {
    if (!patchWrites(update.patch, key)) continue
    values.push(storedPatchValue(update.patch, key))
    sets.push(`${column} = $${values.length}`)
  }
  const text = `UPDATE attempts SET ${[...sets, 'version = version + 1'].join(', ')} WHERE id = $1 AND version = $2 RETURNING ${ATTEMPT}`
  return { text, values }
}

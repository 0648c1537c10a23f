import type pg from 'pg'
import type { Log } from '../telemetry/log.js'
import type { AttemptUpdate } from '../store/ledger-sql.js'
import {
  ATTEMPT_COLUMNS as NAMES,
  type AttemptRow,
  attemptOf,
  columnList,
  PATCH_FIELDS,
  patchWrites,
  storedPatchValue,
} from '../store/ledger-rows.js'
import type { AttemptRecord, WrittenAttempt } from '../store/records.js'
import { ATTEMPT_COLUMNS } from './attempt-columns.js'
import { ATTEMPT_NAMES, insertAttempt, insertColumnsOf } from './attempt-inserts.js'
import { casAttempt, type QueuedRow, UPDATE_INPUT, UPDATE_SETS, updateColumnsOf, writtenOf } from './attempt-updates.js'
import { lengthHidden, replannedText } from './planner-workarounds.js'
import { prepared } from './prepared.js'
import { SQL } from './sql.js'
import { createStatementGroups } from './statement-groups.js'

/** A write on a payment's path: an attempt stored, a compare-and-set, a delivered change's outbox row removed. */
type LedgerWrite =
  | { readonly kind: 'insert'; readonly attempt: AttemptRecord }
  | { readonly kind: 'update'; readonly update: AttemptUpdate }
  | { readonly kind: 'delivered'; readonly id: number }

type LedgerWriteResult = boolean | WrittenAttempt | undefined

// Parameters: the inserts' columns, then the updates' fields, then the delivered ids; one array each.
const arraysOf = (columns: ReadonlyArray<readonly [string, string]>, first: number): string =>
  columns.map(([, type], k) => (k === 0 ? lengthHidden(`$${first + k}`, type) : `$${first + k}::${type}[]`)).join(', ')
const INSERT_ARRAYS = arraysOf(ATTEMPT_COLUMNS, 1)
const UPDATE_ARRAYS = arraysOf(UPDATE_INPUT, ATTEMPT_COLUMNS.length + 1)
const DELIVERED = lengthHidden(`$${ATTEMPT_COLUMNS.length + UPDATE_INPUT.length + 1}`, 'bigint')

/**
 * Every kind of write as one statement, so one round trip and one commit. Its parts see the tables
 * as they were before it (one snapshot): an update never meets an attempt inserted beside it (a
 * group holds no two writes of one attempt), and the outbox read that says whether a queued change
 * waits behind an earlier one leaves out the rows this statement deletes. One row an update, then
 * one a stored insert (`written` says which).
 */
const GROUP = `WITH inserted AS (
    INSERT INTO attempts (${ATTEMPT_NAMES}) SELECT * FROM unnest(${INSERT_ARRAYS}) ON CONFLICT DO NOTHING RETURNING id
  ),
  input AS (SELECT * FROM unnest(${UPDATE_ARRAYS}) AS i(${UPDATE_INPUT.map(([name]) => name).join(', ')})),
  updated AS (
    UPDATE attempts a SET ${[...UPDATE_SETS, 'version = a.version + 1'].join(', ')}
    FROM input i WHERE a.id = i.id AND a.version = i.expected
    RETURNING ${columnList(NAMES, 'a')}, i.change_order_id AS queued_order_id, i.change AS queued_change, i.change_at AS queued_at
  ),
  queued AS (INSERT INTO outbox (order_id, change, next_try_at) SELECT queued_order_id, queued_change, queued_at FROM updated
    WHERE queued_change IS NOT NULL RETURNING id, order_id),
  delivered AS (DELETE FROM outbox WHERE id = ANY(${DELIVERED}))
  SELECT 'updated' AS written, ${columnList(NAMES, 'u')}, q.id AS queued_id,
    EXISTS (SELECT 1 FROM outbox e WHERE e.order_id = q.order_id AND e.id <> ALL(${DELIVERED})) AS queued_behind
  FROM updated u LEFT JOIN queued q ON q.order_id = u.queued_order_id
  UNION ALL
  SELECT 'inserted', id, ${ATTEMPT_COLUMNS.slice(1)
    .map(([, type]) => `NULL::${type}`)
    .join(', ')}, NULL::bigint, NULL::boolean FROM inserted`

async function deleteDelivered(pool: pg.Pool, id: number): Promise<undefined> {
  await pool.query(prepared('DELETE FROM outbox WHERE id = $1', [id]))
  return undefined
}

/** An attempt stored under this insert's key: the insert's own, committed before its answer was lost. */
async function ownInsert(pool: pg.Pool, attempt: AttemptRecord): Promise<boolean> {
  return (await storedRow(pool, attempt.id))?.idempotency_key === attempt.idempotencyKey
}

/** The attempt's row as committed now (the store's own `findAttempt` statement). */
const storedRow = async (pool: pg.Pool, id: string): Promise<AttemptRow | undefined> =>
  (await pool.query<AttemptRow>(prepared(SQL.findAttempt, [id]))).rows[0]

/**
 * The attempt as this update left it, one version on with every field it writes: its own write,
 * committed before its answer was lost. Its queued change is in the outbox; the deliverer's scan sends it.
 */
async function ownUpdate(pool: pg.Pool, update: AttemptUpdate): Promise<WrittenAttempt | undefined> {
  const row = await storedRow(pool, update.id)
  const stored = (value: unknown) => (value === null || value === undefined ? null : String(value))
  const own =
    row?.version === update.expectedVersion + 1 &&
    PATCH_FIELDS.every(
      ([key, column]) =>
        !patchWrites(update.patch, key) || stored(row[column as keyof AttemptRow]) === stored(storedPatchValue(update.patch, key)),
    )
  return own ? attemptOf(row) : undefined
}

/** A row of the group statement: an updated attempt with its queued entry, or the id of an attempt inserted. */
type GroupRow = QueuedRow & { written: 'updated' | 'inserted' }

/**
 * The writes on a payment's path for the pool, in groups (`createStatementGroups`): attempt inserts,
 * compare-and-sets and delivered marks asked for while one group is being written go together as the
 * next, one statement and one commit for all of them. Under load a payment's two durable writes (its
 * attempt before the call, its answer after) share their commits with other payments' writes, and the
 * delivered marks ride along. Two writes of one attempt, two attempts with one key or (order, number),
 * or two changes of one order never share a group: each is judged against what is committed, and an
 * order's changes reach the outbox in the order asked. Rows go in id order, so two instances' groups
 * take their row locks in one order; a group that still deadlocks with another instance's, or with the
 * poller's transaction, is broken by PostgreSQL (after `deadlock_timeout`, 1 s by default) and sent
 * again one write a statement.
 */
export function createLedgerWrites(
  pool: pg.Pool,
  log: Log,
): {
  insert(attempt: AttemptRecord): Promise<boolean>
  update(update: AttemptUpdate): Promise<WrittenAttempt | undefined>
  delivered(id: number): Promise<void>
  /** Resolves once every write asked for so far is answered (for `close`). */
  settled(): Promise<void>
} {
  const group = replannedText(GROUP)
  const count = group.count
  const groups = createStatementGroups<LedgerWrite, LedgerWriteResult>(
    {
      what: 'ledger writes',
      keysOf(write) {
        if (write.kind === 'insert') {
          const a = write.attempt
          return [`id ${a.id}`, `key ${a.idempotencyKey}`, `order ${a.orderId} number ${a.number}`]
        }
        if (write.kind === 'update') {
          const u = write.update
          return u.change ? [`id ${u.id}`, `order ${u.change.orderId}`] : [`id ${u.id}`]
        }
        return [`outbox ${write.id}`]
      },
      orderOf(write) {
        if (write.kind === 'insert') return write.attempt.id
        return write.kind === 'update' ? write.update.id : String(write.id)
      },
      async one(write) {
        if (write.kind === 'insert') return count(await insertAttempt(pool, write.attempt))
        if (write.kind === 'update') return casAttempt(pool, write.update)
        return deleteDelivered(pool, write.id)
      },
      async again(write) {
        if (write.kind === 'insert') return count(await insertAttempt(pool, write.attempt)) || ownInsert(pool, write.attempt)
        if (write.kind === 'update') return (await casAttempt(pool, write.update)) ?? ownUpdate(pool, write.update)
        return deleteDelivered(pool, write.id) // a delete twice deletes once
      },
      async many(writes) {
        const inserts = writes.flatMap((w) => (w.kind === 'insert' ? [w.attempt] : []))
        const updates = writes.flatMap((w) => (w.kind === 'update' ? [w.update] : []))
        const delivered = writes.flatMap((w) => (w.kind === 'delivered' ? [w.id] : []))
        const values = [...insertColumnsOf(inserts), ...updateColumnsOf(updates), delivered]
        const rows = (await pool.query<GroupRow>(prepared(group.current(), values))).rows
        const insertedIds = new Set(rows.flatMap((row) => (row.written === 'inserted' ? [row.id] : [])))
        const updatedRows = new Map(rows.flatMap((row) => (row.written === 'updated' ? [[row.id, row] as const] : [])))
        return writes.map((w) => {
          if (w.kind === 'insert') return count(insertedIds.has(w.attempt.id))
          if (w.kind === 'update') {
            const row = updatedRows.get(w.update.id)
            return row && writtenOf(row, w.update)
          }
          return undefined
        })
      },
    },
    log,
  )
  return {
    insert: (attempt) => groups.run({ kind: 'insert', attempt }) as Promise<boolean>,
    update: (update) => groups.run({ kind: 'update', update }) as Promise<WrittenAttempt | undefined>,
    delivered: async (id) => {
      await groups.run({ kind: 'delivered', id })
    },
    settled: groups.settled,
  }
}

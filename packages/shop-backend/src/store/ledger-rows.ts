/**
 * The ledger's rows as both SQL stores read and write them, one mapping per table, and their
 * records. Column names and meanings are the same in SQLite and PostgreSQL; PostgreSQL returns
 * BIGINT money and sequences as text, so those are read with Number (amounts are minor units, far
 * inside 2^53).
 */
import type { Lease } from './lease.js'
import type { PollProblem } from './poll-batch.js'
import type { AttemptPatch, AttemptRecord, ModificationRecord, OutboxEntry, OrderChange } from './records.js'
import type { AttemptState } from '../ledger/transitions.js'

/** A BIGINT as the driver gives it: a number (better-sqlite3) or its decimal text (pg). */
type Integer = number | string

export interface AttemptRow {
  id: string
  order_id: string
  number: number
  idempotency_key: string
  state: string
  version: number
  currency: string
  value: Integer
  method_type: string
  fingerprint: string
  result_code: string | null
  psp_reference: string | null
  answer: string | null
  details_step: number
  details_key: string | null
  details_fingerprint: string | null
  error_code: string | null
  captured_value: Integer
  refunded_value: Integer
  created_at: string
  updated_at: string
  line_items: string | null
}

export interface ModificationRow {
  id: string
  order_id: string
  attempt_id: string
  kind: ModificationRecord['kind']
  currency: string | null
  value: Integer | null
  idempotency_key: string
  state: ModificationRecord['state']
  version: number
  psp_reference: string | null
  error_code: string | null
  created_at: string
  updated_at: string
  line_items: string | null
  /** 1 or 0 (SQLite has no boolean); null in rows stored before it was kept. */
  asked_rest: number | null
  sent_again_at: string | null
}

export interface ProblemRow {
  sequence: Integer
  change: string
  reason: string
  tries: number
  next_try_at: string
}

export interface OutboxRow {
  id: Integer
  change: string
  tries: number
  next_try_at: string
}

export interface LeaseRow {
  name: string
  holder: string
  expires_at: string
}

/** A row's columns in the order an insert lists them; a record, so a column missing or misspelt does not compile. */
export const columnsOf = <Row>(columns: Readonly<Record<keyof Row & string, true>>): ReadonlyArray<keyof Row & string> =>
  Object.freeze(Object.keys(columns) as Array<keyof Row & string>)

/** The attempts table's columns, `id` first (pg's group statement answers an insert by it). */
export const ATTEMPT_COLUMNS = columnsOf<AttemptRow>({
  id: true,
  order_id: true,
  number: true,
  idempotency_key: true,
  state: true,
  version: true,
  currency: true,
  value: true,
  method_type: true,
  fingerprint: true,
  result_code: true,
  psp_reference: true,
  answer: true,
  details_step: true,
  details_key: true,
  details_fingerprint: true,
  error_code: true,
  captured_value: true,
  refunded_value: true,
  created_at: true,
  updated_at: true,
  line_items: true,
})

/** The modifications table's columns. */
export const MODIFICATION_COLUMNS = columnsOf<ModificationRow>({
  id: true,
  order_id: true,
  attempt_id: true,
  kind: true,
  currency: true,
  value: true,
  idempotency_key: true,
  state: true,
  version: true,
  psp_reference: true,
  error_code: true,
  created_at: true,
  updated_at: true,
  line_items: true,
  asked_rest: true,
  sent_again_at: true,
})

/** The poll_problems table's columns. */
export const PROBLEM_COLUMNS = columnsOf<ProblemRow>({ sequence: true, change: true, reason: true, tries: true, next_try_at: true })

/** The outbox columns a delivery reads. */
export const OUTBOX_COLUMNS = columnsOf<OutboxRow>({ id: true, change: true, tries: true, next_try_at: true })

/**
 * `columns` as a statement lists them, each prefixed by `alias` when given (`a.id, a.order_id`): by
 * name, never `*`, so a running instance's prepared plans keep their shape when a newer one adds a column.
 */
export const columnList = (columns: readonly string[], alias?: string): string =>
  (alias === undefined ? columns : columns.map((column) => `${alias}.${column}`)).join(', ')

/** A row's values in `columns`' order: an insert's values. */
export const valuesOf = <Row>(row: Row, columns: ReadonlyArray<keyof Row>): unknown[] => columns.map((column) => row[column])

const orUndefined = <T>(value: T | null): T | undefined => (value === null ? undefined : value)

export function attemptOf(row: AttemptRow): AttemptRecord {
  return {
    id: row.id,
    orderId: row.order_id,
    number: row.number,
    idempotencyKey: row.idempotency_key,
    state: row.state as AttemptState,
    version: row.version,
    amount: { currency: row.currency, value: Number(row.value) },
    methodType: row.method_type,
    fingerprint: row.fingerprint,
    resultCode: orUndefined(row.result_code),
    pspReference: orUndefined(row.psp_reference),
    answer: row.answer === null ? undefined : (JSON.parse(row.answer) as Record<string, unknown>),
    detailsStep: row.details_step,
    detailsKey: orUndefined(row.details_key),
    detailsFingerprint: orUndefined(row.details_fingerprint),
    errorCode: orUndefined(row.error_code),
    capturedValue: Number(row.captured_value),
    refundedValue: Number(row.refunded_value),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.line_items ? { lineItems: JSON.parse(row.line_items) as AttemptRecord['lineItems'] } : {}),
  }
}

/** The row an attempt is stored as (attemptOf's inverse): both stores insert this. */
export function rowOfAttempt(a: AttemptRecord): AttemptRow {
  return {
    id: a.id,
    order_id: a.orderId,
    number: a.number,
    idempotency_key: a.idempotencyKey,
    state: a.state,
    version: a.version,
    currency: a.amount.currency,
    value: a.amount.value,
    method_type: a.methodType,
    fingerprint: a.fingerprint,
    result_code: a.resultCode ?? null,
    psp_reference: a.pspReference ?? null,
    answer: a.answer === undefined ? null : JSON.stringify(a.answer),
    details_step: a.detailsStep,
    details_key: a.detailsKey ?? null,
    details_fingerprint: a.detailsFingerprint ?? null,
    error_code: a.errorCode ?? null,
    captured_value: a.capturedValue,
    refunded_value: a.refundedValue,
    created_at: a.createdAt,
    updated_at: a.updatedAt,
    line_items: a.lineItems === undefined ? null : JSON.stringify(a.lineItems),
  }
}

export function modificationOf(row: ModificationRow): ModificationRecord {
  return {
    id: row.id,
    orderId: row.order_id,
    attemptId: row.attempt_id,
    kind: row.kind,
    amount: row.currency === null || row.value === null ? undefined : { currency: row.currency, value: Number(row.value) },
    idempotencyKey: row.idempotency_key,
    state: row.state,
    version: row.version,
    pspReference: orUndefined(row.psp_reference),
    errorCode: orUndefined(row.error_code),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.line_items ? { lineItems: JSON.parse(row.line_items) as ModificationRecord['lineItems'] } : {}),
    ...(row.asked_rest === null ? {} : { askedForRest: Number(row.asked_rest) === 1 }),
    ...(row.sent_again_at === null ? {} : { sentAgainAt: row.sent_again_at }),
  }
}

/** The row a modification is stored as (modificationOf's inverse). */
export function rowOfModification(m: ModificationRecord): ModificationRow {
  return {
    id: m.id,
    order_id: m.orderId,
    attempt_id: m.attemptId,
    kind: m.kind,
    currency: m.amount?.currency ?? null,
    value: m.amount?.value ?? null,
    idempotency_key: m.idempotencyKey,
    state: m.state,
    version: m.version,
    psp_reference: m.pspReference ?? null,
    error_code: m.errorCode ?? null,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    line_items: m.lineItems === undefined ? null : JSON.stringify(m.lineItems),
    asked_rest: m.askedForRest === undefined ? null : Number(m.askedForRest),
    sent_again_at: m.sentAgainAt ?? null,
  }
}

export const problemOf = (row: ProblemRow): PollProblem => ({
  sequence: Number(row.sequence),
  change: JSON.parse(row.change) as Record<string, unknown>,
  reason: row.reason,
  tries: row.tries,
  nextTryAt: row.next_try_at,
})

/** An outbox row's change as stored; one queued before OrderChange had a version reads as 0: older than any. */
export const changeOfText = (text: string): OrderChange => ({ version: 0, ...(JSON.parse(text) as Omit<OrderChange, 'version'>) })

export const outboxEntryOf = (row: OutboxRow): OutboxEntry => ({
  id: Number(row.id),
  change: changeOfText(row.change),
  tries: row.tries,
  nextTryAt: row.next_try_at,
})

export const leaseOf = (row: LeaseRow): Lease => ({ name: row.name, holder: row.holder, expiresAt: row.expires_at })

/** The attempt columns a compare-and-set may write, by patch field. */
export const PATCH_COLUMNS: Readonly<Record<keyof AttemptPatch, string>> = Object.freeze({
  state: 'state',
  resultCode: 'result_code',
  pspReference: 'psp_reference',
  answer: 'answer',
  methodType: 'method_type',
  fingerprint: 'fingerprint',
  detailsStep: 'details_step',
  detailsKey: 'details_key',
  detailsFingerprint: 'details_fingerprint',
  errorCode: 'error_code',
  capturedValue: 'captured_value',
  refundedValue: 'refunded_value',
  updatedAt: 'updated_at',
})

/** PATCH_COLUMNS as pairs, in one fixed order (the group statement's bit per field follows it). */
export const PATCH_FIELDS = Object.entries(PATCH_COLUMNS) as ReadonlyArray<readonly [keyof AttemptPatch, string]>

/** A patch writes the fields it has: `null` clears one, `undefined` leaves it as if absent. */
export const patchWrites = (patch: AttemptPatch, key: keyof AttemptPatch): boolean => key in patch && patch[key] !== undefined

/** The stored form of a field the patch writes: the answer as JSON text. */
export function storedPatchValue(patch: AttemptPatch, key: keyof AttemptPatch): unknown {
  const value = patch[key]
  return key === 'answer' && value !== null && value !== undefined ? JSON.stringify(value) : (value ?? null)
}

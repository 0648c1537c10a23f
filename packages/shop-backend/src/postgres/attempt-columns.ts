import { ATTEMPT_COLUMNS as NAMES, type AttemptRow } from '../store/ledger-rows.js'

/** Each attempt column's PostgreSQL type, for the arrays a group is sent as (migrations.ts has the table). */
const TYPES: Readonly<Record<keyof AttemptRow, string>> = {
  id: 'text',
  order_id: 'text',
  number: 'integer',
  idempotency_key: 'text',
  state: 'text',
  version: 'integer',
  currency: 'text',
  value: 'bigint',
  method_type: 'text',
  fingerprint: 'text',
  result_code: 'text',
  psp_reference: 'text',
  answer: 'text',
  details_step: 'integer',
  details_key: 'text',
  details_fingerprint: 'text',
  error_code: 'text',
  captured_value: 'bigint',
  refunded_value: 'bigint',
  created_at: 'text',
  updated_at: 'text',
  line_items: 'text',
}

/** The attempts table's columns, in the shared order (`id` first), with their PostgreSQL types. */
export const ATTEMPT_COLUMNS: ReadonlyArray<readonly [string, string]> = NAMES.map((name) => [name, TYPES[name]] as const)

/** A column's PostgreSQL type. */
export const ATTEMPT_COLUMN_TYPES: ReadonlyMap<string, string> = new Map(ATTEMPT_COLUMNS)

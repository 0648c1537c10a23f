// What every call that moves money carries: its key, stored before the call; a refund by line, its lines.
import type { RefundLine } from './store/records.js'

/** Every money call carries the key the ledger stored before the call. */
export interface KeyedCall {
  /** Sent as `Idempotency-Key`; the same on every retry of the call. */
  readonly idempotencyKey: string
}

/** A refund's call: its key and, for a refund by line, the lines it gives back; a retry sends both again. */
export interface RefundCall extends KeyedCall {
  /** The lines refunded, each by the `id` the payment sent it under, with how many: part of the body under the key. */
  readonly lineItems?: readonly RefundLine[]
}

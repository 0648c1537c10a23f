import type { IdempotencyClaim } from './idempotency.js'
import type { SandboxContext } from './context.js'

export type PaymentStatus =
  | 'identify_shopper'
  | 'challenge_shopper'
  | 'redirect_shopper'
  | 'authorised'
  | 'partially_captured'
  | 'captured'
  | 'partially_refunded'
  | 'refunded'
  | 'cancelled'
  | 'refused'

export interface PaymentRow {
  readonly psp_reference: string
  readonly shop_id: string
  readonly store_id: string
  readonly status: PaymentStatus
  readonly result_code: string
  readonly currency: string
  readonly value: number
  readonly captured: number
  readonly refunded: number
  readonly reference: string | null
  readonly metadata: string
  readonly method_type: string
  readonly card_brand: string | null
  readonly card_last_four: string | null
  /** "MM/YYYY", kept to store the card as a method once the payment is authorised. */
  readonly card_expiry: string | null
  /** 'none', 'frictionless', 'challenge' for cards; 'redirect' for redirect methods. */
  readonly flow: string
  readonly transaction_id: string | null
  readonly acs_result: string | null
  readonly refusal_reason: string | null
  readonly return_origin: string
  readonly return_url: string
  readonly shopper_reference: string | null
  readonly store_method: number
}

export function findPayment(context: SandboxContext, where: 'psp_reference' | 'transaction_id', value: string): PaymentRow | undefined {
  return context.db.prepare(`SELECT * FROM payments WHERE ${where} = ?`).get(value) as PaymentRow | undefined
}

/** Records that a payment changed, with its state at that moment, for updated-payments. */
function recordEvent(
  context: SandboxContext,
  row: Pick<PaymentRow, 'shop_id' | 'psp_reference' | 'status' | 'captured' | 'refunded'>,
): void {
  context.db
    .prepare('INSERT INTO events (shop_id, psp_reference, status, captured, refunded, changed_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(row.shop_id, row.psp_reference, row.status, row.captured, row.refunded, context.now().toISOString())
}

/** With a claim, the key, its fingerprint and the answer commit in the same INSERT as the payment. */
export function insertPayment(context: SandboxContext, row: PaymentRow, idempotency?: IdempotencyClaim & { answer: unknown }): void {
  const now = context.now().toISOString()
  const claim = {
    idempotency_key: idempotency?.scope ?? null,
    idempotency_fingerprint: idempotency?.fingerprint ?? null,
    idempotent_answer: idempotency ? JSON.stringify(idempotency.answer) : null,
  }
  context.db.transaction(() => {
    context.db
      .prepare(
        'INSERT INTO payments (psp_reference, shop_id, store_id, status, result_code, currency, value, captured, refunded, ' +
          `reference, metadata,
           method_type, card_brand, card_last_four, card_expiry, flow, transaction_id, acs_result, refusal_reason, ` +
          `return_origin, return_url,
           shopper_reference, store_method, idempotency_key, idempotency_fingerprint, idempotent_answer, created_at, updated_at)
         VALUES (@psp_reference, @shop_id, @store_id, @status, @result_code, @currency, @value, @captured, @refunded, ` +
          `@reference, @metadata,
           @method_type, @card_brand, @card_last_four, @card_expiry, @flow, @transaction_id, @acs_result, @refusal_reason, ` +
          `@return_origin, @return_url,
           @shopper_reference, @store_method, @idempotency_key, @idempotency_fingerprint, @idempotent_answer, @now, @now)`,
      )
      .run({ ...row, ...claim, now })
    recordEvent(context, row)
  })()
}

/**
 * Changes a payment in one transaction; a change of status or amounts is also recorded for
 * updated-payments (an internal note such as the ACS answer is not a change a shop polls for).
 */
export function updatePayment(context: SandboxContext, row: PaymentRow, changes: Partial<PaymentRow>): PaymentRow {
  const next = { ...row, ...changes }
  const visible = next.status !== row.status || next.captured !== row.captured || next.refunded !== row.refunded
  context.db.transaction(() => {
    const columns = Object.keys(changes)
    context.db
      .prepare(
        `UPDATE payments SET ${columns.map((c) => `${c} = @${c}`).join(', ')}, updated_at = @updated_at ` +
          'WHERE psp_reference = @psp_reference',
      )
      .run({ ...changes, psp_reference: row.psp_reference, updated_at: context.now().toISOString() })
    if (visible) recordEvent(context, next)
  })()
  return next
}

/** The response fields every payment answer carries: pspReference, merchantReference, metadata echoed. */
export function paymentAnswer(row: PaymentRow, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    pspReference: row.psp_reference,
    resultCode: row.result_code,
    ...(row.reference ? { merchantReference: row.reference } : {}),
    metadata: JSON.parse(row.metadata) as unknown,
    ...(row.refusal_reason ? { refusalReason: row.refusal_reason } : {}),
    ...extra,
  }
}

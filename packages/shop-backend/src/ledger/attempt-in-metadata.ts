// Which attempt a payment was made under: sent in its metadata, echoed in the feed (docs/decisions.md).
import type { PaymentRequest } from '@card-jwe/payment-validator'

/** The metadata key of the attempt's number, beside `shop_order_id`. */
export const SHOP_ATTEMPT_KEY = 'shop_attempt'

/** The payment request as sent under the attempt numbered `number`: the same body for every try under its key. */
export const underAttempt = (body: PaymentRequest, number: number): PaymentRequest => ({
  ...body,
  metadata: { ...body.metadata, [SHOP_ATTEMPT_KEY]: number },
})

/** The attempt number a feed record echoes; undefined for a payment made without one (before it was sent, or outside the shop). */
export function attemptNumberOf(record: { readonly metadata?: unknown }): number | undefined {
  const raw = (record.metadata as Readonly<Record<string, unknown>> | undefined)?.[SHOP_ATTEMPT_KEY]
  const number = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 1 ? number : undefined
}

/** Whether the attempt holds a payment other than `pspReference`'s: one key makes one payment, so it is not this one's. */
export const holdsAnotherPayment = (attempt: { readonly pspReference?: string | undefined }, pspReference: string | undefined): boolean =>
  pspReference !== undefined && attempt.pspReference !== undefined && attempt.pspReference !== pspReference

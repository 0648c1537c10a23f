import type { ServicePaymentRequest } from '@card-jwe/payment-validator'
import { SandboxError } from '../errors.js'
import type { OrderTermsRow } from '../order-terms-store.js'

/**
 * Where the sandbox's buy-now-pay-later method (`klarna`) is offered: the countries Klarna serves in
 * Europe and North America, checked against the checkout's `country` and the billing address.
 */
export const KLARNA_COUNTRIES: ReadonlySet<string> = new Set([
  'AT',
  'BE',
  'CA',
  'CH',
  'CZ',
  'DE',
  'DK',
  'ES',
  'FI',
  'FR',
  'GB',
  'GR',
  'IE',
  'IT',
  'NL',
  'NO',
  'PL',
  'PT',
  'SE',
  'US',
])

/**
 * The method's own rules beyond the payment request's schema (which checks the lines add up, the
 * email and the billing country are there): the billing country must be one it serves.
 */
export function checkMethodTerms(body: ServicePaymentRequest): void {
  if (body.paymentMethod.type !== 'klarna') return
  const country = body.billingAddress?.country
  if (country !== undefined && !KLARNA_COUNTRIES.has(country))
    throw new SandboxError('INVALID_REQUEST', 'billingAddress.country: klarna is not offered in this country')
}

/** What the payment keeps of the order: its lines (none refunded yet) and its capture timing. */
export function termsOf(pspReference: string, body: ServicePaymentRequest): OrderTermsRow | undefined {
  const lines = body.lineItems?.map((line) => ({
    id: line.id ?? null,
    quantity: line.quantity,
    amountIncludingTax: line.amountIncludingTax ?? 0,
    refunded: 0,
  }))
  if (lines === undefined && body.captureDelayHours === undefined) return undefined
  return {
    psp_reference: pspReference,
    line_items: lines === undefined ? null : JSON.stringify(lines),
    capture_delay_hours: body.captureDelayHours ?? null,
    capture_due_at: null,
  }
}

/** What names the payment for idempotency beyond amount, reference and metadata: its lines and timing, when sent. */
export function termsClaim(body: ServicePaymentRequest): unknown[] {
  return [
    ...(body.lineItems === undefined ? [] : [body.lineItems]),
    ...(body.captureDelayHours === undefined ? [] : [{ captureDelayHours: body.captureDelayHours }]),
  ]
}

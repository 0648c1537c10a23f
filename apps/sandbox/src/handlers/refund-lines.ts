import type { RefundRequest } from '@card-jwe/payment-validator'
import { SandboxError } from '../errors.js'
import { keptLinesOf, type KeptLine } from '../order-terms-store.js'
import type { SandboxContext } from '../context.js'
import type { PaymentRow } from '../payment-store.js'

/**
 * The payment's lines after a refund by line, or undefined for a refund by amount only. Each line
 * named must be one the payment sent (by `id`), not refunded beyond its quantity, and the lines'
 * `quantity * amountIncludingTax` must add up to the refund's `amount.value`. Refusals name the field.
 */
export function linesAfterRefund(context: SandboxContext, row: PaymentRow, body: RefundRequest): KeptLine[] | undefined {
  if (body.lineItems === undefined) return undefined
  const kept = keptLinesOf(context.orderTerms.find(row.psp_reference))
  if (kept.length === 0) throw new SandboxError('INVALID_REQUEST', 'lineItems: the payment sent no lines to refund by')
  const next = kept.map((line) => ({ ...line }))
  let total = 0
  for (const [index, asked] of body.lineItems.entries()) {
    const line = next.find((l) => l.id === asked.id)
    if (!line) throw new SandboxError('INVALID_REQUEST', `lineItems.${index}.id: not a line of this payment`)
    if (line.refunded + asked.quantity > line.quantity)
      throw new SandboxError('INVALID_REQUEST', `lineItems.${index}.quantity: more than is left of the line to refund`)
    next[next.indexOf(line)] = { ...line, refunded: line.refunded + asked.quantity }
    total += asked.quantity * line.amountIncludingTax
  }
  if (total !== body.amount.value)
    throw new SandboxError('INVALID_REQUEST', 'lineItems: quantity * amountIncludingTax must add up to amount.value')
  return next
}

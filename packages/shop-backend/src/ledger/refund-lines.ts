// A refund by line: which of the payment's lines it gives back, what they come to, and what is left of each.
import { ShopBackendError } from '../errors.js'
import type { AttemptRecord, ModificationRecord, Money, RefundLine, SentLine } from '../store/ledger-store.js'

const MAX_LINES = 1000
const MAX_ID = 100

const invalid = (field: string, rule: string) => new ShopBackendError('INVALID_INPUT', `${field}: ${rule}`, [{ path: field, rule }])

/**
 * The lines as given (`options.lineItems`), checked for shape: each an `id` (1 to 100 characters) and a
 * whole `quantity` of 1 or more, no line twice. Copied field by field, so nothing else is stored or sent.
 */
export function refundLinesOf(given: unknown): RefundLine[] {
  if (!Array.isArray(given) || given.length === 0 || given.length > MAX_LINES)
    throw invalid('lineItems', `1 to ${MAX_LINES} lines, each {id, quantity}`)
  const seen = new Set<string>()
  return given.map((line: unknown, index) => {
    const { id, quantity } = (typeof line === 'object' && line !== null ? line : {}) as { id?: unknown; quantity?: unknown }
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID)
      throw invalid(`lineItems.${index}.id`, `the id of a line of the order, 1 to ${MAX_ID} characters`)
    if (!Number.isSafeInteger(quantity) || (quantity as number) < 1) throw invalid(`lineItems.${index}.quantity`, 'a whole number from 1')
    if (seen.has(id)) throw invalid(`lineItems.${index}.id`, 'each line once')
    seen.add(id)
    return { id, quantity: quantity as number }
  })
}

/** The payment's line of this id with its price, or why a refund cannot name it. */
function sentLine(attempt: AttemptRecord, line: RefundLine, index: number): SentLine & { readonly amountIncludingTax: number } {
  const sent = attempt.lineItems?.find((l) => l.id === line.id)
  if (!sent) throw invalid(`lineItems.${index}.id`, 'not a line of the order as its payment sent it')
  if (typeof sent.amountIncludingTax !== 'number')
    throw invalid(`lineItems.${index}.id`, 'the payment sent this line without amountIncludingTax, so it has no price to refund')
  return sent as SentLine & { readonly amountIncludingTax: number }
}

/**
 * What the lines come to: `quantity * amountIncludingTax` added up, in the payment's currency. Every
 * line must be one the payment sent; a given amount must be that sum.
 */
export function linesAmount(attempt: AttemptRecord, lines: readonly RefundLine[], given: Money | undefined): Money {
  if (!attempt.lineItems || attempt.lineItems.length === 0) throw invalid('lineItems', 'the payment was sent without lines to refund by')
  const value = lines.reduce((sum, line, index) => sum + line.quantity * sentLine(attempt, line, index).amountIncludingTax, 0)
  if (given !== undefined && (given.value !== value || given.currency !== attempt.amount.currency))
    throw new ShopBackendError('AMOUNT_NOT_ALLOWED', "amount: must be the lines' sum (quantity * amountIncludingTax), or left out")
  return { currency: attempt.amount.currency, value }
}

/**
 * Each line's quantity must not be above what is left of it: its quantity sent less what earlier
 * refunds by line asked for that the service took or has not answered yet (a refused one gave nothing back;
 * a dismissed one may have, in the back office, so it counts).
 */
export function checkLinesLeft(attempt: AttemptRecord, asked: readonly ModificationRecord[], lines: readonly RefundLine[]): void {
  const earlier = asked.filter((m) => m.kind === 'refund' && m.state !== 'refused').flatMap((m) => m.lineItems ?? [])
  for (const [index, line] of lines.entries()) {
    const refunded = earlier.filter((l) => l.id === line.id).reduce((sum, l) => sum + l.quantity, 0)
    if (line.quantity > sentLine(attempt, line, index).quantity - refunded)
      throw invalid(`lineItems.${index}.quantity`, 'not above what is left of the line after earlier refunds by line')
  }
}

/** Whether two refunds name the same lines in the same quantities (none and none are the same). */
export function sameLines(a: readonly RefundLine[] | undefined, b: readonly RefundLine[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  const key = (lines: readonly RefundLine[]) =>
    [...lines]
      .sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
      .map((l) => `${l.quantity}x${JSON.stringify(l.id)}`)
      .join(',')
  return key(a) === key(b)
}

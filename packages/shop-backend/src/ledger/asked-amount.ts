// What a capture or refund asks for: its amount, what is left, and whether a stored request asked the same.
import { ShopBackendError } from '../errors.js'
import { sameMoney } from '../lib/same-money.js'
import type { AttemptRecord, ModificationKind, ModificationRecord, Money, RefundLine } from '../store/ledger-store.js'
import { sameLines } from './refund-lines.js'

/** What is left to capture or refund by the feed's totals. */
function leftByFeed(kind: 'capture' | 'refund', attempt: AttemptRecord): number {
  return kind === 'capture' ? attempt.amount.value - attempt.capturedValue : attempt.capturedValue - attempt.refundedValue
}

/**
 * "The rest" when no amount is given. The feed's totals lag the service's answers: what this ledger
 * asked for and the service took (or has not answered yet) counts as done, so the rest right after a
 * partial capture is the rest, not the whole; so does one dismissed, which the back office may have done
 * (naming an amount asks beyond it). The larger count wins: the merchant may also capture
 * elsewhere (the processor's back office), which only the feed shows. A given amount is checked
 * against the feed alone, so one the service took and later failed never blocks the merchant.
 */
export function restAfterAsked(kind: 'capture' | 'refund', attempt: AttemptRecord, asked: readonly ModificationRecord[]): number {
  const askedFor = asked.filter((m) => m.kind === kind && m.state !== 'refused').reduce((sum, m) => sum + (m.amount?.value ?? 0), 0)
  const done = kind === 'capture' ? attempt.capturedValue : attempt.refundedValue
  const whole = kind === 'capture' ? attempt.amount.value : attempt.capturedValue
  return whole - Math.max(done, askedFor)
}

export function amountFor(
  kind: ModificationKind,
  attempt: AttemptRecord,
  asked: readonly ModificationRecord[],
  given: Money | undefined,
): Money | undefined {
  if (kind === 'cancel') return undefined
  const left = given ? leftByFeed(kind, attempt) : restAfterAsked(kind, attempt, asked)
  // No amount was given, so none is named: what is wrong is that nothing is left.
  if (!given && left < 1) throw new ShopBackendError('AMOUNT_NOT_ALLOWED', `orderId: nothing is left to ${kind}`)
  const amount = given ?? { currency: attempt.amount.currency, value: left }
  if (amount.currency !== attempt.amount.currency)
    throw new ShopBackendError('AMOUNT_NOT_ALLOWED', "amount.currency: must be the payment's currency")
  if (!Number.isSafeInteger(amount.value) || amount.value < 1 || amount.value > left) {
    // What is left is said (an amount, never card data): a merchant's page can offer it.
    throw new ShopBackendError('AMOUNT_NOT_ALLOWED', `amount.value: an integer from 1 to what is left to ${kind} (${left})`, {
      left: { currency: attempt.amount.currency, value: left },
    })
  }
  // As the ledger reads it back: the first call's row and a retry's are the same record.
  return { currency: amount.currency, value: amount.value }
}

/**
 * Whether `m` asked for what this call asks for: the same lines (or none, both), and the given amount
 * (a refund by line's is its lines' sum) or, none given, the rest. `m` says whether it asked for the
 * rest: the feed's totals may already count `m` itself (a part capture refunded whole stays
 * partially refunded), so its rest cannot be worked out again. A row stored before the ledger kept
 * that is judged by the rest as it was before it.
 */
export function sameAsked(
  m: ModificationRecord,
  attempt: AttemptRecord,
  asked: readonly ModificationRecord[],
  given: Money | undefined,
  lines: readonly RefundLine[] | undefined,
): boolean {
  if (m.kind === 'cancel') return true
  if (!sameLines(m.lineItems, lines)) return false
  if (given === undefined && m.askedForRest !== undefined) return m.askedForRest
  const wanted = given ?? {
    currency: attempt.amount.currency,
    // Only what was asked before m: a later request does not change what m's "rest" was.
    value: restAfterAsked(
      m.kind,
      attempt,
      asked.filter((other) => other.id !== m.id && Date.parse(other.createdAt) < Date.parse(m.createdAt)),
    ),
  }
  return m.amount !== undefined && sameMoney(m.amount, wanted)
}

/**
 * Whether a call may be the stored request of its `requestId` sent again: it names no other amount
 * and no other lines (the id alone resends it, as `/problems` and a 503's `details.requestId` offer).
 * A cancel has no amount: one passed to it is ignored.
 */
export function askedTheSame(
  stored: ModificationRecord,
  options: { readonly amount?: Money | undefined; readonly lineItems?: readonly RefundLine[] | undefined },
): boolean {
  if (stored.kind === 'cancel') return true
  if (options.lineItems !== undefined && !sameLines(stored.lineItems, options.lineItems)) return false
  return options.amount === undefined || (stored.amount !== undefined && sameMoney(stored.amount, options.amount))
}

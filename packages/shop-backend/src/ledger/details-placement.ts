// Which attempt of the order a payment-details answer is about: the rules, apart from the flow that sends them.
import type { PaymentResponse } from '@card-jwe/payment-validator'
import type { AttemptRecord } from '../store/ledger-store.js'
import { sameMoney } from '../lib/same-money.js'
import { orderIdOfRecord } from '../updated-payments-feed.js'
import { attemptNumberOf, holdsAnotherPayment } from './attempt-in-metadata.js'

/**
 * The attempt an answer names: by its pspReference, else by the attempt number its echoed metadata
 * carries (the spec echoes the payment's metadata in its answers); never one holding another payment.
 */
export function namedAttempt(attempts: readonly AttemptRecord[], answer: PaymentResponse): AttemptRecord | undefined {
  const reference = answer.pspReference
  const byReference = reference ? attempts.find((a) => a.pspReference === reference) : undefined
  if (byReference) return byReference
  const number = orderIdOfRecord(answer) === attempts[0]?.orderId ? attemptNumberOf(answer) : undefined
  const byNumber = number === undefined ? undefined : attempts.find((a) => a.number === number)
  return byNumber && !holdsAnotherPayment(byNumber, reference) ? byNumber : undefined
}

/** A final answer carries the amount taken: another than the attempt's names another payment. */
function ofAnotherAmount(attempt: AttemptRecord, answer: PaymentResponse): boolean {
  return answer.amount !== undefined && !sameMoney(answer.amount, attempt.amount)
}

/**
 * Whether an answer that names no attempt may go on the claim holder: never onto one that holds
 * another payment or asked another amount; a next step (an action) is the holder's to run; a final
 * answer only when no other attempt waits at a step (else it may be another tab's).
 */
export function fitsClaimHolder(attempts: readonly AttemptRecord[], sentFor: AttemptRecord, answer: PaymentResponse): boolean {
  if (holdsAnotherPayment(sentFor, answer.pspReference) || ofAnotherAmount(sentFor, answer)) return false
  if (answer.action !== undefined) return true
  return !attempts.some((a) => a.id !== sentFor.id && a.state === 'action_required')
}

/**
 * The attempt a details answer is about. Two windows on one order each run their own payment's
 * step, and the details name the payment, not the attempt: the answer says which. Unnamed, a next
 * step is the claim holder's; a final answer is left for the feed to name (it may be another tab's,
 * or another order's whose return was posted here).
 */
export function answeredAttempt(
  attempts: readonly AttemptRecord[],
  sentFor: AttemptRecord,
  answer: PaymentResponse,
): AttemptRecord | undefined {
  const named = namedAttempt(attempts, answer)
  if (named) return named
  return answer.action !== undefined && fitsClaimHolder(attempts, sentFor, answer) ? sentFor : undefined
}

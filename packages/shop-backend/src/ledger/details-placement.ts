// Which attempt of the order a payment-details answer is about: the rules, apart from the flow that sends them.
import type { PaymentResponse } from '@card-jwe/payment-validator'
import type { AttemptRecord } from '../store/ledger-store.js'
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
  const taken = answer.amount
  return taken !== undefined && (taken.currency !== attempt.amount.currency || taken.value !== attempt.amount.value)
}

/**
 * The attempt a details answer is about. Two windows on one order each run their own payment's
 * step, and the details name the payment, not the attempt: the answer says which.
 */
export function answeredAttempt(
  attempts: readonly AttemptRecord[],
  sentFor: AttemptRecord,
  answer: PaymentResponse,
): AttemptRecord | undefined {
  const named = namedAttempt(attempts, answer)
  if (named) return named
  // An answer naming a payment never goes onto an attempt that holds another one's.
  if (holdsAnotherPayment(sentFor, answer.pspReference)) return undefined
  // Nor one of another amount: another payment's details (a confused or forged page); the feed says whose.
  if (ofAnotherAmount(sentFor, answer)) return undefined
  // Nothing to go by. A next step (an action) is the claim holder's to run, as before. A final
  // answer goes there only if no other attempt waits at a step: else it may be another tab's
  // refusal, and stored here it would end this attempt wrongly; the feed will say whose it is.
  if (answer.action !== undefined) return sentFor
  const others = attempts.filter((a) => a.id !== sentFor.id && a.state === 'action_required')
  return others.length === 0 ? sentFor : undefined
}

// POST payment-details: one call per step under the order's claim, its answer stored on its own attempt.
import { sayIfSignatureRefused } from '../lib/signature-refusal.js'
import { type BrowserPaymentResult, type OrderRecord, type PaymentResponse, toBrowserPaymentResult } from '@card-jwe/payment-validator'
import { ShopBackendError } from '../errors.js'
import { PaymentServiceError } from '../payment-service.js'
import type { AttemptRecord } from '../store/ledger-store.js'
import { FAILED_STATES, HOLDING_MONEY, PAID_STATES, STATE_IN_WORDS, stateOfResultCode, UNSETTLED_STATES } from './transitions.js'
import type { BackendContext } from '../backend-context.js'
import { browserAnswer, paidAttempt, refuseIfCancelled, storeAnswer } from './attempts.js'
import { claimIsStale, detailsKeyOf, markUnanswered, releaseClaim, unansweredClaim, waitForOthers } from './details-claim.js'
import { answeredAttempt, fitsClaimHolder, namedAttempt } from './details-placement.js'
import { readFeedFor, settledByFeed } from './feed-check.js'
import { holdForFeed } from './hold-for-feed.js'
import { outcomeIsOpen, outcomePending, refusal } from './refusals.js'
import { orderIdOfRecord } from '../updated-payments-feed.js'

/** What a details call was sent under: its claim's key and the details' fingerprint. */
interface SentDetails {
  readonly key: string
  readonly detailsFingerprint: string
}

/**
 * POST payment-details. One details call for an order at a time, across instances (the claim on the
 * latest attempt), and none once any attempt is paid: two windows finishing their own 3-D Secure
 * step on one order make one payment, and the later window hears the paid answer. A repeat of
 * details already answered gets that answer, never a second call.
 */
export async function submitDetails(
  context: BackendContext,
  order: OrderRecord,
  detailsFingerprint: string,
  send: (attempt: AttemptRecord, idempotencyKey: string) => Promise<PaymentResponse>,
): Promise<BrowserPaymentResult> {
  const orderId = String(order.id)
  const wait = waitForOthers(context)
  for (let tries = 0; tries < 5; ) {
    const attempts = await context.store.listAttempts(orderId)
    const paid = paidAttempt(attempts)
    // The return page reloaded, a second tab, a double click: the paid answer again, never a 4xx.
    if (paid) return browserAnswer(paid)
    // The same step's details again (a double submit, a reload), whichever attempt they finished: their answer.
    const answered = attempts.find((a) => a.answer && a.detailsFingerprint === detailsFingerprint)
    if (answered) return browserAnswer(answered)
    const latest = attempts.at(-1)
    if (!latest) throw new ShopBackendError('NOT_AWAITING_DETAILS', 'orderId: the order has no payment awaiting a shopper step')
    refuseIfCancelled(attempts)
    // A step done and being confirmed (any attempt): another step must not finish beside it.
    if (attempts.some((a) => a.state === 'confirming')) throw outcomePending()
    // Any attempt stopped at a step may be the one these details finish, not only the latest: a bank
    // redirect can come back after another tab's card was refused. The claim stays on the latest.
    const detailsOut = latest.state === 'pending' && latest.detailsKey !== undefined
    if (!detailsOut && !attempts.some((a) => a.state === 'action_required')) {
      if (FAILED_STATES.has(latest.state) && latest.answer) return browserAnswer(latest)
      throw new ShopBackendError(
        'NOT_AWAITING_DETAILS',
        `orderId: the order's payment ${STATE_IN_WORDS[latest.state]}, not waiting for a shopper step`,
      )
    }
    // The latest attempt's payment call is out, or its outcome open: an earlier attempt's step must
    // not finish beside it (both could be authorised). Its outcome first.
    if (UNSETTLED_STATES.has(latest.state) && !detailsOut) {
      await wait()
      continue
    }
    const key = detailsKeyOf(latest, detailsFingerprint)
    // Free, or these details' own call ended without an answer: they go (again) now. Any other claim
    // is a call out (these same details on another instance too) or a new attempt being made.
    if (latest.detailsKey !== undefined && latest.detailsKey !== unansweredClaim(key)) {
      // Its outcome first.
      if (!claimIsStale(context, latest)) {
        await wait()
        continue
      }
      // Out longer than any call lasts: its instance died or its answer was lost. Only a feed read
      // that shows nothing new for the order lets these details go instead.
      if ((await readFeedFor(context, orderId)) === 'pending') throw outcomePending()
      const paidMeanwhile = paidAttempt(await context.store.listAttempts(orderId))
      if (paidMeanwhile) return browserAnswer(paidMeanwhile)
    }
    tries++
    // Claimed (again) right before every send, a resend under the same key too: the claim's age is
    // the age of the call that is out, so no other instance takes it over while that call runs.
    const attempt = await context.store.compareAndSet(latest.id, latest.version, {
      detailsKey: key,
      updatedAt: context.now().toISOString(),
    })
    if (!attempt) continue // another writer moved it: read again
    try {
      return await sendUnderClaim(context, attempts, attempt, { key, detailsFingerprint }, send)
    } catch (error) {
      // The call is over without a stored answer, however it ended (no answer, a feed not read yet, a
      // store error): its claim, if still its own, says so, and only these details may go again at once.
      await markUnanswered(context, attempt.id, key).catch(() => {})
      throw error
    }
  }
  throw new ShopBackendError('NOT_AWAITING_DETAILS', 'orderId: the payment kept changing; try again')
}

/** The details call under the claim `key` on `attempt`, and its answer stored on the attempt it is about. */
async function sendUnderClaim(
  context: BackendContext,
  attempts: readonly AttemptRecord[],
  attempt: AttemptRecord,
  { key, detailsFingerprint }: SentDetails,
  send: (attempt: AttemptRecord, idempotencyKey: string) => Promise<PaymentResponse>,
): Promise<BrowserPaymentResult> {
  let answer: PaymentResponse
  try {
    answer = await send(attempt, key)
  } catch (error) {
    if (!(error instanceof PaymentServiceError)) throw error
    // No answer: the claim stays (marked unanswered by the caller) until the feed or a resend settles it.
    // The shopper's step is done and may have paid: "being confirmed" (a reload resends), never Pay again.
    // The step went through before and its answer was lost (the retry of a lost try hears it too): the feed knows the outcome.
    if (error.code === 'PAYMENT_ALREADY_FINAL') return settledByFeed(context, attempt, key)
    if (outcomeIsOpen(error)) throw outcomePending()
    // Refused (the step not finished yet, details of another payment): judged again on the next try.
    await releaseClaim(context, attempt.id, key)
    sayIfSignatureRefused(context.log, attempt.orderId, error.code)
    throw refusal(error)
  }
  // Details of another order's payment (a confused or forged page): nothing of this order is touched.
  const answerOrderId = orderIdOfRecord(answer)
  if (answerOrderId !== undefined && answerOrderId !== attempt.orderId) {
    const named = namedAttempt(await context.store.listAttempts(answerOrderId), answer)
    return handOverToItsOrder(context, attempt, { key, detailsFingerprint }, answerOrderId, named, answer)
  }
  // Another window's payment (an earlier attempt) may have finished its step: its answer goes on its attempt.
  let target = answeredAttempt(attempts, attempt, answer)
  if (!target) {
    // Whose answer it is, the feed says (its records name their attempt): read, then place it again.
    await readFeedFor(context, attempt.orderId)
    const now = await context.store.listAttempts(attempt.orderId)
    target = namedAttempt(now, answer)
    if (!target) return unplacedAnswer(context, now, attempt, { key, detailsFingerprint }, answer)
  }
  return storeUnderClaim(context, attempt, target, { key, detailsFingerprint }, answer)
}

/**
 * Another order's answer (its return posted here, by a confused or forged page): this order's claim
 * released, the answer said in the log under that order and stored on `itsAttempt` as its feed
 * record would be (were it dropped, that order's next Pay could go beside the payment these details
 * just made; none named there, the feed settles it). The page hears that nothing of this order changed.
 */
async function handOverToItsOrder(
  context: BackendContext,
  attempt: AttemptRecord,
  { key, detailsFingerprint }: SentDetails,
  orderId: string,
  itsAttempt: AttemptRecord | undefined,
  answer: PaymentResponse,
): Promise<never> {
  await releaseClaim(context, attempt.id, key)
  context.log(`order ${orderId}: its payment-details answer (${answer.resultCode}) came with another order's details`, 'warn', {
    component: 'ledger',
    code: 'DETAILS_OF_ANOTHER_ORDER',
    orderId,
    pspReference: answer.pspReference,
  })
  if (itsAttempt) await storeAnswer(context, itsAttempt, answer, { detailsFingerprint, detailsStep: itsAttempt.detailsStep + 1 })
  throw new ShopBackendError('NOT_AWAITING_DETAILS', "details: they finish another order's payment")
}

/** The answer stored on `target`, then the claim on `attempt` released. */
async function storeUnderClaim(
  context: BackendContext,
  attempt: AttemptRecord,
  target: AttemptRecord,
  { key, detailsFingerprint }: SentDetails,
  answer: PaymentResponse,
): Promise<BrowserPaymentResult> {
  // A version moved on meanwhile (the feed read) is read again by storeAnswer's compare-and-set.
  const current = target.id === attempt.id ? attempt : ((await context.store.findAttempt(target.id)) ?? target)
  const stored = await storeAnswer(context, current, answer, { detailsFingerprint, detailsStep: target.detailsStep + 1 })
  // Released only while it is still this call's: a claim taken over meanwhile stays with its taker.
  await releaseClaim(context, attempt.id, key)
  return browserAnswer(stored)
}

/**
 * An answer that names no attempt, after the feed read. A payment whose reference the ledger holds
 * on another order's attempt is that order's (its return posted here): stored there, as its feed
 * record would be, and nothing of this order moves. The read ending another attempt's step is no
 * sign the answer was the claim holder's, so a refusal is not stored: it says nothing was paid, the
 * claim goes and the page that sent the details hears it. A paid order is paid whoever asks. An
 * answer with no reference that is no payment yet (Received) goes where it did before the read (a
 * wrong `confirming` holds the order, in sight). Anything else names a payment nobody knows: no
 * reference is taken (the feed's record of another order's payment would then pay this one), and
 * the order is held as being confirmed until the feed names it: no Pay or step goes beside it.
 */
async function unplacedAnswer(
  context: BackendContext,
  attempts: readonly AttemptRecord[],
  attempt: AttemptRecord,
  sent: SentDetails,
  answer: PaymentResponse,
): Promise<BrowserPaymentResult> {
  const elsewhere = answer.pspReference ? await context.store.findAttemptByPspReference(answer.pspReference) : undefined
  if (elsewhere && elsewhere.orderId !== attempt.orderId)
    return handOverToItsOrder(context, attempt, sent, elsewhere.orderId, elsewhere, answer)
  const paid = paidAttempt(attempts)
  const state = stateOfResultCode(answer.resultCode, answer.action !== undefined, true)
  if (paid || FAILED_STATES.has(state)) {
    // Another payment than the paid one's (a reference of its own): money held twice, unless the feed says otherwise.
    if (paid && HOLDING_MONEY.has(state) && answer.pspReference !== undefined && answer.pspReference !== paid.pspReference)
      saidUnplaced(context, attempt.orderId, answer, 'error', 'the order is paid already: refund one')
    await releaseClaim(context, attempt.id, sent.key)
    return paid ? browserAnswer(paid) : toBrowserPaymentResult(answer)
  }
  // The claim holder as the read left it (it may hold a reference now).
  const current = attempts.find((a) => a.id === attempt.id) ?? attempt
  const noPaymentNamed = answer.pspReference === undefined && !PAID_STATES.has(state)
  if (noPaymentNamed && fitsClaimHolder(attempts, current, answer)) return storeUnderClaim(context, current, current, sent, answer)
  // A next step the holder cannot take (it holds another payment) moves no money: only the claim stays.
  if (answer.action !== undefined) {
    saidUnplaced(context, attempt.orderId, answer, 'warn', 'the claim stays until the feed settles it')
    throw outcomePending()
  }
  await holdForFeed(context, attempt.orderId, attempt.id)
  saidUnplaced(context, attempt.orderId, answer, 'warn', 'the order is held as being confirmed until the feed names it')
  throw outcomePending()
}

/** A details answer the ledger could not place, said in the log with its reference (the feed's record will name it). */
function saidUnplaced(context: BackendContext, orderId: string, answer: PaymentResponse, level: 'warn' | 'error', why: string): void {
  context.log(`order ${orderId}: a payment-details answer (${answer.resultCode}) names no attempt; ${why}`, level, {
    component: 'ledger',
    code: 'DETAILS_ANSWER_UNPLACED',
    orderId,
    pspReference: answer.pspReference,
  })
}

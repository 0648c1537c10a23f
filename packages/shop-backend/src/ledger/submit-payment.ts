// POST payments: which attempt a submission goes to, and its one call under the attempt's key.
import type { BrowserPaymentResult, OrderRecord, PaymentResponse } from '@card-jwe/payment-validator'
import { ShopBackendError } from '../errors.js'
import { PaymentServiceError } from '../payment-service.js'
import type { AttemptRecord } from '../store/ledger-store.js'
import { ABANDONABLE_RESULT_CODES, FAILED_STATES, STATE_IN_WORDS, UNSETTLED_STATES } from './transitions.js'
import type { BackendContext } from '../backend-context.js'
import {
  browserAnswer,
  changeOf,
  compareAndSetQueueing,
  markOpen,
  newAttempt,
  paidAttempt,
  refuseIfCancelled,
  sameOrder,
  storeAnswer,
} from './attempts.js'
import { claimIsStale, waitForOthers } from './details-claim.js'
import { readFeedFor } from './feed-check.js'
import { sayIfSignatureRefused } from '../lib/signature-refusal.js'
import { keyUsedBefore, openOutcome, outcomeIsOpen, outcomePending, refusal, whyOpen } from './refusals.js'

/** Which attempt a new submission goes to: the open one (same key), a new one, or none (paid or not payable). */
async function attemptFor(
  context: BackendContext,
  order: OrderRecord,
  methodType: string,
  fingerprint: string,
  repeatWindowMs: number,
  freshEachTry: boolean,
): Promise<{ fresh: AttemptRecord } | { resend: AttemptRecord } | { paid: AttemptRecord } | { repeat: AttemptRecord }> {
  const orderId = String(order.id)
  // Most submissions are an order's first: attempt 1 is stored at once, and it can be only when the
  // order has no attempt (numbers start at 1, one per number). That saves a read and decides nothing
  // differently; otherwise the attempts are read and judged below.
  const first = newAttempt(context, order, 1, methodType, fingerprint)
  if (await context.store.insertAttempt(first)) return { fresh: first }
  const wait = waitForOthers(context)
  let polled = false
  for (let tries = 0; tries < 5; tries++) {
    const attempts = await context.store.listAttempts(orderId)
    const paid = paidAttempt(attempts)
    if (paid) return { paid: sameOrder(paid, order) }
    const latest = attempts.at(-1)
    refuseIfCancelled(attempts)
    // Outcome open: the same attempt again, so the service's idempotency answers with the first payment.
    // Another method too while no answer was ever stored: under the same key the service charges at
    // most one of them (a key names its method: the other is IDEMPOTENCY_KEY_REUSED, nothing charged).
    if (latest && UNSETTLED_STATES.has(latest.state)) {
      const unanswered = latest.answer === undefined && latest.pspReference === undefined
      if (latest.methodType === methodType || unanswered) return { resend: sameOrder(latest, order) }
      // The service answered and holds the payment ("Received", "Pending"): only its outcome can end it.
      throw new ShopBackendError(
        'ORDER_NOT_PAYABLE',
        `order: its payment by ${latest.methodType} is still being confirmed; pay with it again, or try again in a moment`,
      )
    }
    // The same submission again (a double click, a second tab): the stored answer, not a second payment.
    // A JWE is made afresh for each real try, so its repeat is always a repeat; anything else (a saved
    // card's id alone, another method) only within a window, or a refused one could never be tried again;
    // and never once a step ended it: after the bank's Cancel, iDEAL again is a new try.
    const endedAtStep = latest !== undefined && latest.detailsStep > 0 && FAILED_STATES.has(latest.state)
    const recent = latest && !endedAtStep && context.now().getTime() - Date.parse(latest.createdAt) <= repeatWindowMs
    if (latest?.answer && latest.fingerprint === fingerprint && (freshEachTry || recent)) return { repeat: latest }
    // A shopper's step done, the service confirming it (any attempt: a bank's return in another tab):
    // nothing new goes until the feed ends it.
    if (attempts.some((a) => a.state === 'confirming')) throw outcomePending()
    const abandoned = latest?.state === 'action_required' && ABANDONABLE_RESULT_CODES.has(latest.resultCode ?? '')
    if (latest && !FAILED_STATES.has(latest.state) && !abandoned)
      throw new ShopBackendError('ORDER_NOT_PAYABLE', `order: its payment ${STATE_IN_WORDS[latest.state]}`)
    if (latest) {
      // The shopper left a step (or a payment failed) for a new try, but another window may be
      // finishing a step under the latest attempt's claim: never both. Wait for that call's outcome.
      if (latest.detailsKey !== undefined && !claimIsStale(context, latest)) {
        await wait()
        tries--
        continue
      }
      // A claim out longer than any call lasts: only a feed read that shows nothing new lets a new try go.
      if (latest.detailsKey !== undefined && !polled) {
        polled = true
        if ((await readFeedFor(context, orderId)) === 'pending') throw outcomePending()
        tries--
        continue
      }
      // Claimed for the new attempt, so a details call for the old one waits for it in turn.
      const fenced = await context.store.compareAndSet(latest.id, latest.version, {
        detailsKey: `${latest.idempotencyKey}-next`,
        updatedAt: context.now().toISOString(),
      })
      if (!fenced) continue
    }
    const attempt = newAttempt(context, order, (latest?.number ?? 0) + 1, methodType, fingerprint)
    // Stored before the call (the key with it); losing the insert means another process is first: read again.
    if (await context.store.insertAttempt(attempt)) return { fresh: attempt }
  }
  throw new ShopBackendError('INTERNAL', 'attempt: could not be stored')
}

/** POST payments: one attempt per submission, the key stored before the call, the answer before the page hears it. */
export async function submitPayment(
  context: BackendContext,
  order: OrderRecord,
  submission: {
    readonly methodType: string
    readonly fingerprint: string
    readonly repeatWindowMs: number
    /** The submission carries a JWE made for this try (a card's, a saved card's code): a same one is a repeat. */
    readonly freshEachTry: boolean
  },
  send: (attempt: AttemptRecord) => Promise<PaymentResponse>,
): Promise<BrowserPaymentResult> {
  for (let tries = 0; tries < 3; tries++) {
    const chosen = await attemptFor(
      context,
      order,
      submission.methodType,
      submission.fingerprint,
      submission.repeatWindowMs,
      submission.freshEachTry,
    )
    if ('paid' in chosen) return browserAnswer(chosen.paid)
    if ('repeat' in chosen) return browserAnswer(chosen.repeat)
    const sent = await sendUnderKey(context, chosen, send)
    // Another submission moved the attempt on (its refusal ended it, or it resent): judged again.
    if (sent === 'moved') continue
    // Another method under the key: the answer is that method's own (a key names its method), so the
    // attempt now is. The same method's answer may be the first submission's (the key's first payment).
    const { methodType, fingerprint } = submission
    const switched = 'resend' in chosen && chosen.resend.methodType !== methodType
    return browserAnswer(await storeAnswer(context, sent.attempt, sent.answer, switched ? { methodType, fingerprint } : {}))
  }
  throw outcomePending()
}

/**
 * The attempt's call under its key. A resend first moves the attempt's version on, so the refusal
 * of a call sent before it (another tab's, another instance's) cannot end the attempt under it: a
 * refusal ends the attempt only by a compare-and-set on the version its call was sent with, and
 * only for the attempt's first call (a resend's refusal says nothing of calls sent before it, which
 * may still arrive). While an earlier call under the key still runs (409 `IDEMPOTENCY_KEY_IN_USE`)
 * it waits and resends, as a double click waits for the first; past the wait the outcome is open.
 */
async function sendUnderKey(
  context: BackendContext,
  chosen: { fresh: AttemptRecord } | { resend: AttemptRecord },
  send: (attempt: AttemptRecord) => Promise<PaymentResponse>,
): Promise<{ attempt: AttemptRecord; answer: PaymentResponse } | 'moved'> {
  let attempt = 'fresh' in chosen ? chosen.fresh : chosen.resend
  let resent = !('fresh' in chosen)
  const wait = waitForOthers(context)
  for (;;) {
    if (resent) {
      const moved = await context.store.compareAndSet(attempt.id, attempt.version, { updatedAt: context.now().toISOString() })
      if (!moved) return 'moved'
      const { queued: _, ...current } = moved
      attempt = current
    }
    try {
      return { attempt, answer: await send(attempt) }
    } catch (error) {
      if (!(error instanceof PaymentServiceError)) throw error
      if (
        error.code === 'IDEMPOTENCY_KEY_IN_USE' &&
        (await wait().then(
          () => true,
          () => false,
        ))
      ) {
        resent = true
        continue
      }
      if (outcomeIsOpen(error)) {
        await markOpen(context, attempt)
        saidOpen(context, attempt, error.code, whyOpen(error))
        throw openOutcome(error)
      }
      // Refused: nothing was charged under the key; the attempt is final and failed, and the next
      // submission is a new attempt. Not when the key was used before for another request (that one
      // may have charged), nor for a resend, nor once another sender moved the attempt on.
      const mayHaveCharged = resent || keyUsedBefore(error)
      if (UNSETTLED_STATES.has(attempt.state) && !mayHaveCharged) {
        await compareAndSetQueueing(
          context,
          attempt,
          { state: 'error', errorCode: error.code, updatedAt: context.now().toISOString() },
          changeOf(attempt, { state: 'error', errorCode: error.code, updatedAt: '' }),
        )
        if (error.code === 'CARD_DATA_UNDECRYPTABLE') saidUndecryptable(context, attempt)
      } else if (UNSETTLED_STATES.has(attempt.state))
        saidOpen(context, attempt, error.code, keyUsedBefore(error) ? 'its key used before' : 'a resend refused')
      sayIfSignatureRefused(context.log, attempt.orderId, error.code)
      // The key names another request that reached the service (another method, another tab's): its outcome is open.
      if (keyUsedBefore(error)) throw outcomePending()
      throw refusal(error)
    }
  }
}

/** A card the service could not decrypt is most often the shop's certificatePem: the merchant hears it, not only the page. */
function saidUndecryptable(context: BackendContext, attempt: AttemptRecord): void {
  context.log(
    `order ${attempt.orderId}: the service could not decrypt the card (CARD_DATA_UNDECRYPTABLE); ` +
      "check that certificatePem is the processor's certificate for this account and environment",
    'warn',
    { component: 'checkout', code: 'CARD_DATA_UNDECRYPTABLE', orderId: attempt.orderId },
  )
}

/** An attempt left open is said in the log: the merchant sees it before any shopper asks. */
function saidOpen(context: BackendContext, attempt: AttemptRecord, code: string, why: string): void {
  context.log(
    `order ${attempt.orderId}: attempt ${attempt.number} stays open (${why}, ${code}); its key is kept for the next try and the poller`,
    'warn',
    { component: 'ledger', code, orderId: attempt.orderId },
  )
}

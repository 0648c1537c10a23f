import { toBrowserPaymentResult, type BrowserPaymentResult, type OrderRecord, type PaymentResponse } from '@card-jwe/payment-validator'
import { ShopBackendError } from '../errors.js'
import { orderIdOfRecord, PaymentServiceError } from '../payment-service.js'
import type { AttemptPatch, AttemptRecord, OrderChange } from '../store.js'
import {
  FAILED_STATES,
  PAID_STATES,
  resultCodeOfState,
  stateOfResultCode,
  transition,
  UNSETTLED_STATES,
  ABANDONABLE_RESULT_CODES,
} from '../transitions.js'
import type { BackendContext } from './context.js'
import { newIdempotencyKey } from './idempotency-key.js'

/** The payments the service knows of the order's attempts, each once. */
export const pspReferencesOf = (attempts: readonly AttemptRecord[]): string[] => [
  ...new Set(attempts.flatMap((a) => (a.pspReference ? [a.pspReference] : []))),
]

/** The order's paid attempt, if any: the latest one in a paid state. */
export const paidAttempt = (attempts: readonly AttemptRecord[]) => [...attempts].reverse().find((a) => PAID_STATES.has(a.state))

/** What the page is told of an attempt: its stored answer, or (settled by the poller) its state in words. */
export function browserAnswer(attempt: AttemptRecord): BrowserPaymentResult {
  const stored = attempt.answer as PaymentResponse | undefined
  // A stored answer that the poller has since overtaken (an action, then paid) is not repeated: the state is.
  if (stored && stateOfResultCode(stored.resultCode, stored.action !== undefined) === attempt.state) return toBrowserPaymentResult(stored)
  return { resultCode: resultCodeOfState(attempt.state) }
}

export function changeOf(attempt: AttemptRecord, patch: AttemptPatch): OrderChange {
  const state = patch.state ?? attempt.state
  const pspReference = patch.pspReference ?? attempt.pspReference
  const resultCode = patch.resultCode ?? attempt.resultCode
  return {
    orderId: attempt.orderId,
    attempt: attempt.number,
    state,
    previousState: attempt.state,
    ...(resultCode ? { resultCode } : {}),
    ...(pspReference ? { pspReference } : {}),
    amount: attempt.amount,
    capturedValue: patch.capturedValue ?? attempt.capturedValue,
    refundedValue: patch.refundedValue ?? attempt.refundedValue,
    // The compare-and-set that queues this change moves the version on by one.
    version: attempt.version + 1,
  }
}

/** A compare-and-set on `current`; the change it queued is told to the outbox, which delivers it with the request's answer. */
async function compareAndSetQueueing(
  context: BackendContext,
  current: AttemptRecord,
  patch: AttemptPatch,
  change: OrderChange | undefined,
): Promise<AttemptRecord | undefined> {
  const written = await context.store.compareAndSet(current.id, current.version, patch, change)
  if (!change) return written
  // A lost race: whoever won may have queued the change; the request's answer still waits until the shop heard it.
  context.changeQueued(written?.queued)
  if (!written) return written
  const { queued: _, ...attempt } = written
  return attempt
}

/**
 * Stores the service's answer on the attempt (compare-and-set on the version read before the call).
 * A lost race or a state the table refuses keeps what is stored: the caller answers from it.
 */
export async function storeAnswer(
  context: BackendContext,
  attempt: AttemptRecord,
  answer: PaymentResponse,
  extra: Partial<AttemptPatch> = {},
): Promise<AttemptRecord> {
  for (let current: AttemptRecord | undefined = attempt; current; current = await context.store.findAttempt(attempt.id)) {
    const to = stateOfResultCode(answer.resultCode, answer.action !== undefined)
    const verdict = transition(current.state, to)
    if (verdict === 'ignore') return current
    const patch: AttemptPatch = {
      state: to,
      resultCode: answer.resultCode,
      ...(answer.pspReference ? { pspReference: answer.pspReference } : {}),
      answer: answer as unknown as Record<string, unknown>,
      errorCode: null,
      ...extra,
      updatedAt: context.now().toISOString(),
    }
    const written = await compareAndSetQueueing(context, current, patch, verdict === 'move' ? changeOf(current, patch) : undefined)
    if (written) return written
  }
  throw new ShopBackendError(500, 'INTERNAL', 'attempt: vanished from the ledger')
}

/** Leaves the attempt as it is but records that its outcome is open (state `pending` from `created`). */
async function markOpen(context: BackendContext, attempt: AttemptRecord): Promise<void> {
  if (attempt.state !== 'created') return
  await context.store.compareAndSet(attempt.id, attempt.version, { state: 'pending', updatedAt: context.now().toISOString() })
}

export function unreachable(): ShopBackendError {
  return new ShopBackendError(
    503,
    'SERVICE_UNREACHABLE',
    'The payment service could not be reached. Try again in a moment; the order is never charged twice.',
  )
}

export function refusal(error: PaymentServiceError): ShopBackendError {
  if (error.serviceCode.startsWith('CARD_'))
    return new ShopBackendError(422, 'CARD_DATA_REFUSED', error.message, { serviceCode: error.serviceCode })
  return new ShopBackendError(502, 'SERVICE_REFUSED', `the payment service refused the request (${error.serviceCode})`, {
    serviceCode: error.serviceCode,
  })
}

/** A new attempt, not stored yet: its idempotency key is made here. */
function newAttempt(context: BackendContext, order: OrderRecord, number: number, methodType: string, fingerprint: string): AttemptRecord {
  const orderId = String(order.id)
  const now = context.now()
  const at = now.toISOString()
  return {
    id: `${orderId}:${number}`,
    orderId,
    number,
    idempotencyKey: newIdempotencyKey(now.getTime()),
    state: 'created',
    version: 1,
    amount: { currency: order.amount.currency, value: order.amount.value },
    methodType,
    fingerprint,
    detailsStep: 0,
    capturedValue: 0,
    refundedValue: 0,
    createdAt: at,
    updatedAt: at,
  }
}

/**
 * A details call's idempotency key: per attempt, step and details. The same details again (a resend
 * after a lost answer) carry the same key; another window's details for the order never share it.
 */
export const detailsKeyOf = (attempt: AttemptRecord, detailsFingerprint: string) =>
  `${attempt.idempotencyKey}-d${attempt.detailsStep + 1}-${detailsFingerprint.slice(0, 12)}`

/** How long a claimed details call may still be out: past every default deadline of the service client (15 s). */
export const DETAILS_CLAIM_STALE_MS = 60_000
/** How long, in all, a details submission waits for another window's call to the service to end. */
const DETAILS_WAIT_MS = 2_000
const DETAILS_WAIT_STEP_MS = 100

/**
 * Waits one step for another's call to the service to end (a claim, a payment call out); once
 * DETAILS_WAIT_MS is spent, 503 OUTCOME_PENDING. One per request.
 */
function waitForOthers(context: BackendContext): () => Promise<void> {
  let waitedMs = 0
  return async () => {
    if (waitedMs >= DETAILS_WAIT_MS) throw outcomePending()
    await context.sleep(DETAILS_WAIT_STEP_MS)
    waitedMs += DETAILS_WAIT_STEP_MS
  }
}

/** A claim older than any call lasts: its instance died or its answer was lost. */
const claimIsStale = (context: BackendContext, attempt: AttemptRecord) =>
  context.now().getTime() - Date.parse(attempt.updatedAt) >= DETAILS_CLAIM_STALE_MS

/**
 * The ledger's payment must be for the order as the shop reads it now. An order id that names
 * another order (orders kept in memory and numbered afresh after a restart, a shop's database
 * reset under a kept ledger) must not be answered "Authorised" from someone else's payment.
 */
function sameOrder(attempt: AttemptRecord, order: OrderRecord): AttemptRecord {
  if (attempt.amount.currency === order.amount.currency && attempt.amount.value === order.amount.value) return attempt
  throw new ShopBackendError(
    409,
    'ORDER_CHANGED',
    `orderId: the ledger holds a payment of another amount for this order id (${attempt.state}); an order id must name one order for good`,
  )
}

/** Which attempt a new submission goes to: the open one (same key), a new one, or none (paid or not payable). */
async function attemptFor(
  context: BackendContext,
  order: OrderRecord,
  methodType: string,
  fingerprint: string,
  repeatWindowMs: number,
): Promise<AttemptRecord | { paid: AttemptRecord } | { repeat: AttemptRecord }> {
  const orderId = String(order.id)
  // Most submissions are an order's first: attempt 1 is stored at once, and it can be only when the
  // order has no attempt (numbers start at 1, one per number). That saves a read and decides nothing
  // differently; otherwise the attempts are read and judged below.
  const first = newAttempt(context, order, 1, methodType, fingerprint)
  if (await context.store.insertAttempt(first)) return first
  const wait = waitForOthers(context)
  let polled = false
  for (let tries = 0; tries < 5; tries++) {
    const attempts = await context.store.listAttempts(orderId)
    const paid = paidAttempt(attempts)
    if (paid) return { paid: sameOrder(paid, order) }
    const latest = attempts.at(-1)
    if (latest?.state === 'cancelled') throw new ShopBackendError(409, 'ORDER_NOT_PAYABLE', 'order: its payment was cancelled')
    // Outcome open: the same attempt again, so the service's idempotency answers with the first payment.
    if (latest && UNSETTLED_STATES.has(latest.state)) {
      // Its call may have gone through: another method under its key would be refused by the
      // service's idempotency, and that refusal must not read as "nothing charged".
      if (latest.methodType !== methodType)
        throw new ShopBackendError(
          409,
          'ORDER_NOT_PAYABLE',
          `order: its payment by ${latest.methodType} is still being confirmed; pay with it again, or try again in a moment`,
        )
      return sameOrder(latest, order)
    }
    // The same submission again (a double click, a second tab): the stored answer, not a second payment.
    // A card JWE is made afresh for each real try, so its repeat is always a repeat; other methods within a window.
    const recent = latest && context.now().getTime() - Date.parse(latest.createdAt) <= repeatWindowMs
    if (latest?.answer && latest.fingerprint === fingerprint && (methodType === 'scheme' || recent)) return { repeat: latest }
    const abandoned = latest?.state === 'action_required' && ABANDONABLE_RESULT_CODES.has(latest.resultCode ?? '')
    if (latest && !FAILED_STATES.has(latest.state) && !abandoned)
      throw new ShopBackendError(409, 'ORDER_NOT_PAYABLE', `order: its payment is ${latest.state}`)
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
    if (await context.store.insertAttempt(attempt)) return attempt
  }
  throw new ShopBackendError(500, 'INTERNAL', 'attempt: could not be stored')
}

/** POST payments: one attempt per submission, the key stored before the call, the answer before the page hears it. */
export async function submitPayment(
  context: BackendContext,
  order: OrderRecord,
  submission: { readonly methodType: string; readonly fingerprint: string; readonly repeatWindowMs: number },
  send: (attempt: AttemptRecord) => Promise<PaymentResponse>,
): Promise<BrowserPaymentResult> {
  const chosen = await attemptFor(context, order, submission.methodType, submission.fingerprint, submission.repeatWindowMs)
  if ('paid' in chosen) return browserAnswer(chosen.paid)
  if ('repeat' in chosen) return browserAnswer(chosen.repeat)
  let answer: PaymentResponse
  try {
    answer = await send(chosen)
  } catch (error) {
    if (!(error instanceof PaymentServiceError)) throw error
    if (error.kind === 'unknown') {
      await markOpen(context, chosen)
      throw unreachable()
    }
    // Refused: nothing was charged; the attempt is final and failed, so the next submission is a new attempt.
    // Not so when the key was used before for another request: that request may have charged.
    const current = await context.store.findAttempt(chosen.id)
    if (current && UNSETTLED_STATES.has(current.state) && error.serviceCode !== 'IDEMPOTENCY_KEY_REUSED') {
      await compareAndSetQueueing(
        context,
        current,
        { state: 'error', errorCode: error.serviceCode, updatedAt: context.now().toISOString() },
        changeOf(current, { state: 'error', updatedAt: '' }),
      )
    }
    throw refusal(error)
  }
  return browserAnswer(await storeAnswer(context, chosen, answer))
}

/**
 * The attempt a details answer is about. Two windows on one order each run their own payment's
 * step, and the details name the payment, not the attempt: the answer's pspReference says which.
 */
export function answeredAttempt(
  attempts: readonly AttemptRecord[],
  sentFor: AttemptRecord,
  answer: PaymentResponse,
): AttemptRecord | undefined {
  const named = answer.pspReference ? attempts.find((a) => a.pspReference === answer.pspReference) : undefined
  if (named) return named
  // No reference to go by. A next step (an action) is the claim holder's to run, as before. A final
  // answer goes there only if no other attempt waits at a step: else it may be another tab's
  // refusal, and stored here it would end this attempt wrongly; the feed will say whose it is.
  if (answer.action !== undefined) return sentFor
  const others = attempts.filter((a) => a.id !== sentFor.id && a.state === 'action_required')
  return others.length === 0 ? sentFor : undefined
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
    if (!latest) throw new ShopBackendError(409, 'NOT_AWAITING_DETAILS', 'orderId: the order has no payment awaiting a shopper step')
    // The merchant cancelled the order's payment: another tab's step must not pay it again.
    if (attempts.some((a) => a.state === 'cancelled'))
      throw new ShopBackendError(409, 'ORDER_NOT_PAYABLE', 'order: its payment was cancelled')
    // Any attempt stopped at a step may be the one these details finish, not only the latest: a bank
    // redirect can come back after another tab's card was refused. The claim stays on the latest.
    const detailsOut = latest.state === 'pending' && latest.detailsKey !== undefined
    if (!detailsOut && !attempts.some((a) => a.state === 'action_required')) {
      if (FAILED_STATES.has(latest.state) && latest.answer) return browserAnswer(latest)
      throw new ShopBackendError(
        409,
        'NOT_AWAITING_DETAILS',
        `orderId: the order's payment is ${latest.state}, not awaiting a shopper step`,
      )
    }
    // The latest attempt's payment call is out, or its outcome open: an earlier attempt's step must
    // not finish beside it (both could be authorised). Its outcome first.
    if (UNSETTLED_STATES.has(latest.state) && !detailsOut) {
      await wait()
      continue
    }
    const key = detailsKeyOf(latest, detailsFingerprint)
    if (latest.detailsKey !== undefined && latest.detailsKey !== key) {
      // Other details are out (another window, another instance), or a new attempt is being made: their outcome first.
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
    let answer: PaymentResponse
    try {
      answer = await send(attempt, key)
    } catch (error) {
      if (!(error instanceof PaymentServiceError)) throw error
      if (error.kind === 'unknown') throw unreachable()
      // The step went through before and its answer was lost: the feed knows the outcome.
      if (error.serviceCode === 'PAYMENT_ALREADY_FINAL') return settledByFeed(context, attempt, key)
      // Refused (the step not finished yet, details of another payment): judged again on the next try.
      await releaseClaim(context, attempt.id, key)
      throw refusal(error)
    }
    // Another window's payment (an earlier attempt) may have finished its step: its answer goes on its attempt.
    const target = answeredAttempt(attempts, attempt, answer)
    if (!target) {
      // Whose answer it is, the feed will say: the claim goes, the page is asked to reload.
      await releaseClaim(context, attempt.id, key)
      throw outcomePending()
    }
    const current = target.id === attempt.id ? attempt : ((await context.store.findAttempt(target.id)) ?? target)
    const stored = await storeAnswer(context, current, answer, { detailsFingerprint, detailsStep: target.detailsStep + 1 })
    // Released only while it is still this call's: a claim taken over meanwhile stays with its taker.
    await releaseClaim(context, attempt.id, key)
    return browserAnswer(stored)
  }
  throw new ShopBackendError(409, 'NOT_AWAITING_DETAILS', 'orderId: the payment kept changing; try again')
}

/** Clears the attempt's details claim if it is still this call's. */
async function releaseClaim(context: BackendContext, attemptId: string, key: string): Promise<void> {
  // Again when another writer (the poller) moved the attempt meanwhile: a claim left behind would
  // hold the order for a minute.
  for (let tries = 0; tries < 5; tries++) {
    const current = await context.store.findAttempt(attemptId)
    if (current?.detailsKey !== key) return
    const patch = { detailsKey: null, updatedAt: context.now().toISOString() }
    if (await context.store.compareAndSet(current.id, current.version, patch)) return
  }
}

function outcomePending(): ShopBackendError {
  return new ShopBackendError(
    503,
    'OUTCOME_PENDING',
    'The payment is being confirmed. Reload this page in a moment; the order is never charged twice.',
  )
}

/**
 * The service says the payment these details are for is final, and its answer was lost: the feed
 * knows. Paid: that answer. Otherwise, once the feed was read, the claim goes (the payment is final,
 * nothing more can be sent for it) and the page hears the order's state, or "being confirmed".
 */
async function settledByFeed(context: BackendContext, attempt: AttemptRecord, key: string): Promise<BrowserPaymentResult> {
  const read = await readFeedFor(context, attempt.orderId)
  const attempts = await context.store.listAttempts(attempt.orderId)
  const paid = paidAttempt(attempts)
  if (paid) return browserAnswer(paid)
  const current = attempts.find((a) => a.id === attempt.id)
  if (current && FAILED_STATES.has(current.state)) return browserAnswer(current)
  if (read !== 'clear') throw outcomePending()
  // The feed was read: the payment these details were for is final and did not pay the order.
  await releaseClaim(context, attempt.id, key)
  throw new ShopBackendError(409, 'NOT_AWAITING_DETAILS', 'orderId: this payment already has its final result; the order is not paid')
}

/**
 * One poll of the feed. `clear`: it was read to its end (by this instance, or, when another holds
 * the poller's lease, read here without applying) and shows nothing of the order that the ledger
 * has not applied. `pending`: not read, or news for the order waits for the lease holder's poll.
 */
async function readFeedFor(context: BackendContext, orderId: string): Promise<'clear' | 'pending'> {
  const report = await context.pollNow()
  // A poll that failed, or stopped with the feed unread, has not looked at everything.
  if (report.failed !== undefined || report.moreToRead) return 'pending'
  // A record the poller kept as a problem (a conflict with the claim's own write, a store error) is
  // behind the cursor: news about the order all the same.
  const references = new Set(pspReferencesOf(await context.store.listAttempts(orderId)))
  const aboutOrder = (record: Readonly<Record<string, unknown>>) =>
    orderIdOfRecord(record) === orderId || references.has(String(record.pspReference))
  if ((await context.store.listProblems()).some((p) => aboutOrder(p.change))) return 'pending'
  if (report.leaseHeldBy === undefined) return 'clear'
  try {
    const service = await context.service()
    let after = await context.store.readCursor()
    for (let pages = 0; pages < FEED_PAGES_TO_LOOK_AT; pages++) {
      const page = await service.updatedPayments({ after, limit: 100 })
      if (page.payments.some(aboutOrder)) return 'pending'
      if (!page.hasMore) return 'clear'
      after = page.cursor
    }
  } catch {
    // Unread is not clear.
  }
  return 'pending'
}

/** How far behind the stored cursor a look at the feed goes before it gives up (100 records a page). */
const FEED_PAGES_TO_LOOK_AT = 10

// An attempt's rules the flows share: what the page and the shop are told of it, and its writes.
import { toBrowserPaymentResult, type BrowserPaymentResult, type OrderRecord, type PaymentResponse } from '@card-jwe/payment-validator'
import { sameMoney } from '../lib/same-money.js'
import { ShopBackendError } from '../errors.js'
import type { AttemptPatch, AttemptRecord, OrderChange } from '../store/ledger-store.js'
import { movesIntoMoneyHeld, PAID_STATES, resultCodeOfState, stateOfResultCode, transition } from './transitions.js'
import { sayIfPaidTwice } from './paid-twice.js'
import type { BackendContext } from '../backend-context.js'
import { newIdempotencyKey } from '../lib/idempotency-key.js'

/** The payments the service knows of the order's attempts, each once. */
export const pspReferencesOf = (attempts: readonly AttemptRecord[]): string[] => [
  ...new Set(attempts.flatMap((a) => (a.pspReference ? [a.pspReference] : []))),
]

/** The order's attempts, oldest first; `ORDER_NOT_FOUND` when the ledger holds none (never submitted, or not the shop's). */
export async function attemptsOfOrder(context: BackendContext, orderId: string): Promise<AttemptRecord[]> {
  const attempts = await context.store.listAttempts(orderId)
  if (attempts.length === 0) throw new ShopBackendError('ORDER_NOT_FOUND', 'orderId: the ledger holds no payment for this order')
  return attempts
}

/** The order's paid attempt, if any: the latest one in a paid state. */
export const paidAttempt = (attempts: readonly AttemptRecord[]) => [...attempts].reverse().find((a) => PAID_STATES.has(a.state))

/**
 * Refuses anything more for an order once the merchant cancelled one of its payments, the latest or
 * not (a tab at a step may have made a later attempt): no new payment, no other tab's step.
 */
export function refuseIfCancelled(attempts: readonly AttemptRecord[]): void {
  if (attempts.some((a) => a.state === 'cancelled')) throw new ShopBackendError('ORDER_NOT_PAYABLE', 'order: its payment was cancelled')
}

/** What the page is told of an attempt: its stored answer, or (settled by the poller) its state in words. */
export function browserAnswer(attempt: AttemptRecord): BrowserPaymentResult {
  const stored = attempt.answer as PaymentResponse | undefined
  // A stored answer that the poller has since overtaken (an action, then paid) is not repeated: the state is.
  // A details answer (a step made) is judged as one: its "wait" is `confirming`.
  const sameState = stored && stateOfResultCode(stored.resultCode, stored.action !== undefined, attempt.detailsStep > 0) === attempt.state
  if (stored && sameState) return toBrowserPaymentResult(stored)
  return { resultCode: resultCodeOfState(attempt.state) }
}

export function changeOf(attempt: AttemptRecord, patch: AttemptPatch): OrderChange {
  const state = patch.state ?? attempt.state
  const pspReference = patch.pspReference ?? attempt.pspReference
  const resultCode = patch.resultCode ?? attempt.resultCode
  const errorCode = state === 'error' ? (patch.errorCode ?? attempt.errorCode) : undefined
  return {
    orderId: attempt.orderId,
    attempt: attempt.number,
    state,
    previousState: attempt.state,
    ...(resultCode ? { resultCode } : {}),
    ...(errorCode ? { errorCode } : {}),
    ...(pspReference ? { pspReference } : {}),
    amount: attempt.amount,
    capturedValue: patch.capturedValue ?? attempt.capturedValue,
    refundedValue: patch.refundedValue ?? attempt.refundedValue,
    // The compare-and-set that queues this change moves the version on by one.
    version: attempt.version + 1,
  }
}

/** A compare-and-set on `current`; the change it queued is told to the outbox, which delivers it with the request's answer. */
export async function compareAndSetQueueing(
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
    // A details answer carries its step: its "wait" comes after the shopper's step, not before the call.
    const to = stateOfResultCode(answer.resultCode, answer.action !== undefined, extra.detailsStep !== undefined)
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
    // Paid while the poller applied another attempt's payment (a bank redirect approved meanwhile). An order's
    // first payment answer is skipped: no other attempt can hold money then, and it is every payment's path.
    const mayBeSecond = current.number > 1 || extra.detailsStep !== undefined
    if (written && verdict === 'move' && mayBeSecond && movesIntoMoneyHeld(current.state, to))
      await sayIfPaidTwice(context, written.orderId, written.number)
    if (written) return written
  }
  throw new ShopBackendError('INTERNAL', 'attempt: vanished from the ledger')
}

/** Leaves the attempt as it is but records that its outcome is open (state `pending` from `created`). */
export async function markOpen(context: BackendContext, attempt: AttemptRecord): Promise<void> {
  // Read again after a lost race: another sender's resend moves only the version on, and the outcome stays open.
  let current: AttemptRecord | undefined = attempt
  for (let tries = 0; current?.state === 'created' && tries < 5; tries++) {
    const patch: AttemptPatch = { state: 'pending', updatedAt: context.now().toISOString() }
    // A new state like any other: the shop hears it, so its order shows the payment in progress, not unpaid.
    if (await compareAndSetQueueing(context, current, patch, changeOf(current, patch))) return
    current = await context.store.findAttempt(attempt.id)
  }
}

/** A new attempt, not stored yet: its idempotency key is made here. */
export function newAttempt(
  context: BackendContext,
  order: OrderRecord,
  number: number,
  methodType: string,
  fingerprint: string,
): AttemptRecord {
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
    // What the payment request carries (buildPaymentRequest takes them from the order): a refund by line names them.
    ...(order.lineItems === undefined ? {} : { lineItems: order.lineItems }),
  }
}

/**
 * The ledger's payment must be for the order as the shop reads it now. An order id that names
 * another order (orders kept in memory and numbered afresh after a restart, a shop's database
 * reset under a kept ledger) must not be answered "Authorised" from someone else's payment.
 */
export function sameOrder(attempt: AttemptRecord, order: OrderRecord): AttemptRecord {
  if (sameMoney(attempt.amount, order.amount)) return attempt
  throw new ShopBackendError(
    'ORDER_CHANGED',
    `orderId: the ledger holds a payment of another amount for this order id (${attempt.state}); an order id must name one order for good`,
  )
}

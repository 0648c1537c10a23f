import { isNotNow, ShopBackendError } from '../errors.js'
import type { AttemptRecord, ModificationKind, ModificationRecord, Money, RefundLine } from '../store/ledger-store.js'
import { type AttemptState, HOLDING_MONEY, TOOK_PAYMENT } from './transitions.js'
import type { BackendContext } from '../backend-context.js'
import { fingerprintOf } from '../lib/fingerprint.js'
import { newIdempotencyKey } from '../lib/idempotency-key.js'
import { attemptsOfOrder, paidAttempt } from './attempts.js'
import { answerOf, askedAsDismissed, resultOf, sendStored, type ModificationResult } from './send-modification.js'
import { checkLinesLeft, linesAmount, refundLinesOf } from './refund-lines.js'
import { amountFor, askedTheSame, restAfterAsked, sameAsked } from './asked-amount.js'

export type { ModificationResult } from './send-modification.js'

/** Options of capture, refund and cancel by order. */
export interface ModifyOptions {
  /** Default: what is left (capture: authorised minus captured; refund: captured minus refunded). */
  readonly amount?: Money
  /**
   * One merchant action (one click), 8-64 of [A-Za-z0-9_-]: make it when the action starts and
   * repeat it after an unknown outcome (alone, or with the same amount and lines) and it is sent
   * with the same idempotency key, never twice; a new id is a new action. Without one, the payment's
   * open request of this kind (its outcome unknown) is settled first under its key and is the answer
   * when it asked for the same (amount, or the rest); so is one made within `repeatWindowMs`, and,
   * once nothing is left, the request that took the rest. One an operator dismissed that asked the
   * same refuses it (409 `MODIFICATION_DISMISSED`): it may be that request's retry.
   */
  readonly requestId?: string
  /**
   * A refund by line: which of the order's lines it gives back, each by the `id` the payment sent it
   * under, with how many. The amount is their `quantity * amountIncludingTax` at the price sent; a
   * given `amount` must be that sum. Stored with the refund and sent again on every retry.
   */
  readonly lineItems?: readonly RefundLine[]
  /**
   * Which of the order's payments, by its `pspReference`. Default: its one payment. An order paid
   * twice (`/problems`' `paidTwice` names both) needs it on every call, retries too (which payment a
   * call means cannot be guessed without moving money on the other), unless the other ended in the
   * service's back office with nothing sent for it here.
   */
  readonly pspReference?: string
}

/** Spec "States and transitions" and "Endpoints" rule 5; refund preconditions are decisions.md's (captured money only). */
const ALLOWED: Readonly<Record<ModificationKind, ReadonlySet<AttemptState>>> = {
  capture: new Set(['authorised', 'partially_captured']),
  refund: new Set(['partially_captured', 'captured', 'partially_refunded']),
  cancel: new Set(['authorised']),
}

/** The states a request of each kind can bring about itself: a plain retry of a lost one may find the payment there. */
const CAUSED_BY: Readonly<Record<ModificationKind, ReadonlySet<AttemptState>>> = {
  capture: new Set(['captured', 'partially_refunded', 'refunded']),
  refund: new Set(['refunded']),
  cancel: new Set(['cancelled']),
}

const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/

/** Rounds of read, decide, store before giving up: each lost round means another writer stored a row of this order. */
const ROUNDS = 8

/** Capture, refund or cancel the order's paid attempt: the key stored before the call, a repeat sent under it. */
export async function modifyOrder(
  context: BackendContext,
  kind: ModificationKind,
  orderId: string,
  options: ModifyOptions = {},
  repeatWindowMs: number,
): Promise<ModificationResult> {
  if (options.requestId !== undefined && !REQUEST_ID.test(options.requestId))
    throw new TypeError('requestId: 8 to 64 characters of [A-Za-z0-9_-]')
  if (options.lineItems !== undefined && kind !== 'refund') throw new TypeError(`lineItems: only a refund gives lines back, not a ${kind}`)
  if (options.pspReference !== undefined && (typeof options.pspReference !== 'string' || options.pspReference === ''))
    throw new TypeError("pspReference: a payment's reference, as the service gave it")
  // Checked and copied once, before the lock: what is stored and sent is this copy.
  const checked = options.lineItems === undefined ? options : { ...options, lineItems: refundLinesOf(options.lineItems) }
  // The repeat window is measured from the click's arrival: waiting for the order's lock or for older
  // open requests to settle must not turn the second half of a double click into a new request.
  const arrivedAt = context.now().getTime()
  return context.withLock(orderId, async () => {
    // Every decision is made on one read, and a row is stored only under an id that read makes: a
    // lost insert means another instance stored first, so the next round reads again and decides again.
    for (let round = 0; round < ROUNDS; round++) {
      const decided = await decide(context, kind, orderId, checked, { arrivedAt, repeatWindowMs })
      if (decided?.answer) return decided.answer
      if (decided?.record && (await context.store.insertModification(decided.record))) return sendStored(context, decided.record, 'first')
    }
    throw new ShopBackendError('OUTCOME_PENDING', 'orderId: the modifications kept changing; try again')
  })
}

type Decision =
  | { readonly answer: ModificationResult; readonly record?: never }
  | { readonly answer?: never; readonly record: ModificationRecord }

/**
 * One round: the answer from what is stored (a repeat, a settled open request), the row to store
 * next, or nothing when open requests were settled and the next round must read what they became.
 */
async function decide(
  context: BackendContext,
  kind: ModificationKind,
  orderId: string,
  options: ModifyOptions,
  window: { readonly arrivedAt: number; readonly repeatWindowMs: number },
): Promise<Decision | undefined> {
  const stored = options.requestId === undefined ? undefined : await context.store.findModification(options.requestId)
  if (stored && (stored.orderId !== orderId || stored.kind !== kind))
    throw new ShopBackendError('REQUEST_ID_REUSED', 'requestId: already used for another order or action')
  const named = options.pspReference === undefined ? undefined : await namedPayment(context, orderId, options.pspReference)
  if (stored && named && stored.attemptId !== named.id)
    throw new ShopBackendError('REQUEST_ID_REUSED', "requestId: already used for another of the order's payments")
  if (stored && !askedTheSame(stored, options))
    throw new ShopBackendError('REQUEST_ID_REUSED', 'requestId: already used for another amount or other lines')
  if (stored && stored.state !== 'requested') return { answer: answerOf(stored) }
  // The click repeated (here or on another instance): sent again under its key whatever the state now
  // (that state may be its own doing); the service answers it once, which settles it. Its refusal leaves
  // it open: the first send may have moved the money (sendStored).
  if (stored) return { answer: await sendStored(context, stored, 'again') }
  const attempts = named ? [named] : await unnamedPayment(context, await attemptsOfOrder(context, orderId))
  // A cancelled payment is no longer paid, yet a plain retry of the cancel that did it must find it.
  const attempt = paidAttempt(attempts) ?? [...attempts].reverse().find((a) => CAUSED_BY[kind].has(a.state))
  // A refund right after a capture: the money is captured once the feed shows it, not when it is asked for.
  const notAllowed = (asked: readonly ModificationRecord[] = []) =>
    new ShopBackendError(
      'MODIFICATION_NOT_ALLOWED',
      kind === 'refund' && asked.some((m) => m.kind === 'capture' && m.state !== 'refused' && m.state !== 'dismissed')
        ? "orderId: a refund needs captured money, and the feed has not shown this payment's capture yet; try again once it has"
        : `orderId: a ${kind} needs a payment that is ${[...ALLOWED[kind]].join(' or ')}`,
    )
  if (!attempt) throw notAllowed()
  const allowed = ALLOWED[kind].has(attempt.state)
  const asked = await context.store.listModifications(attempt.id)
  // A state this kind may have caused (a refund lost, then the feed showed "refunded") still lets a
  // plain retry settle it; any other state refuses before anything is sent (a stale cancel once captured).
  if (!allowed && (options.requestId !== undefined || !CAUSED_BY[kind].has(attempt.state))) throw notAllowed(asked)
  // This click stored by another instance since the lookup above: the next round answers it as a repeat,
  // not as a new request that finds nothing left (its own row already counts as asked).
  if (options.requestId !== undefined && asked.some((m) => m.id === options.requestId)) return undefined
  const lines = options.lineItems
  // A refund by line asks for its lines' sum: an amount as good as a given one.
  const given = lines === undefined ? options.amount : linesAmount(attempt, lines, options.amount)
  // Nothing more of this kind can be asked for: a plain call without an amount can only be a repeat.
  const repeatOnly = !allowed && given === undefined
  // A repeat asked the same (the rest, or the amount): a part capture of an amount is never what "the
  // rest" repeats. A row stored before `askedForRest` was kept cannot tell: nothing more can be asked, so it is.
  const same = (m: ModificationRecord) => sameAsked(m, attempt, asked, given, lines) || (repeatOnly && m.askedForRest === undefined)
  if (options.requestId === undefined) {
    // Every earlier call of this kind whose outcome is unknown is settled first (oldest first), each
    // under its key (the service answers it once): a plain retry or a double click never sends a second.
    const open = asked.filter((m) => m.kind === kind && m.state === 'requested')
    let answer: ModificationResult | undefined
    for (const m of open) {
      const settled = await sendStored(context, m, 'again').catch((error: unknown) => {
        // Refused for good (the service's 422 ends it, or another send found it refused): nothing moved; judged next round.
        if (error instanceof ShopBackendError && !isNotNow(error)) return undefined
        throw error
      })
      // With `repeatOnly` the newest one settled is the call being repeated; otherwise the first that asked the same.
      if (settled && (repeatOnly || !answer) && same(m)) answer = settled
    }
    if (answer) return { answer }
    // The next round reads what they became: no id is made from a read that held an open request.
    if (open.length > 0) return undefined
    // A double click: the same request answered within the window (from its last answer to this
    // click's arrival; answered after it arrived counts too) gets that result.
    const received = asked
      .filter((m) => m.kind === kind && m.state === 'received')
      .sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))
    const repeated = received.find((m) => window.arrivedAt - Date.parse(m.updatedAt) < window.repeatWindowMs && same(m))
    if (repeated) return { answer: resultOf(repeated) }
    // Nothing is left to ask for, so a plain call for the rest can only repeat the one that took it,
    // however late (its answers lost past the window): told that one, never "nothing is left".
    if (given === undefined && (repeatOnly || (kind !== 'cancel' && restAfterAsked(kind, attempt, asked) < 1))) {
      // A part capture of a given amount did not take the rest (refunded from, the rest is still
      // authorised): it is not what this call repeats.
      const took = received.find(same)
      if (took) return { answer: resultOf(took) }
    }
    // A dismissed request is no longer settled first, so a plain retry of it (its answer lost) would go
    // as a new request under a new key: one that asks the same is refused; a new action names its requestId.
    const dismissed = asked.find((m) => m.kind === kind && m.state === 'dismissed' && same(m))
    if (dismissed) throw askedAsDismissed(dismissed)
  }
  if (!allowed) throw notAllowed()
  const amount = amountFor(kind, attempt, asked, given)
  if (lines) checkLinesLeft(attempt, asked, lines)
  const at = context.now().toISOString()
  return {
    record: {
      id: options.requestId ?? plainId(kind, attempt, asked),
      orderId,
      attemptId: attempt.id,
      kind,
      amount,
      ...(lines === undefined ? {} : { lineItems: lines }),
      ...(kind === 'cancel' ? {} : { askedForRest: given === undefined }),
      idempotencyKey: newIdempotencyKey(context.now().getTime()),
      state: 'requested',
      version: 1,
      createdAt: at,
      updatedAt: at,
    },
  }
}

/**
 * What a call that names no payment is about. One payment taken: the order's attempts. Two (paid
 * twice): the one payment that holds money or has requests of this ledger on it, when the other has
 * neither (ended in the back office); a plain retry then finds what it repeats even after it ended
 * that payment. Else a name is needed: "the latest paid" moves as this ledger ends one, and a
 * repeated call would act on the other.
 */
async function unnamedPayment(context: BackendContext, attempts: readonly AttemptRecord[]): Promise<readonly AttemptRecord[]> {
  const took = attempts.filter((a) => TOOK_PAYMENT.has(a.state))
  if (took.length < 2) return attempts
  const askedHere = await Promise.all(took.map(async (a) => (await context.store.listModifications(a.id)).length > 0))
  const inPlay = took.filter((a, i) => HOLDING_MONEY.has(a.state) || askedHere[i])
  if (inPlay.length === 1) return inPlay
  const rule = 'needed for an order paid twice: which of its payments'
  throw new ShopBackendError('INVALID_INPUT', `pspReference: ${rule}`, [{ path: 'pspReference', rule }])
}

/** The order's payment the merchant named: the attempt that holds its reference. */
async function namedPayment(context: BackendContext, orderId: string, pspReference: string): Promise<AttemptRecord> {
  const named = (await attemptsOfOrder(context, orderId)).find((a) => a.pspReference === pspReference)
  const rule = "one of this order's payments"
  if (!named) throw new ShopBackendError('INVALID_INPUT', `pspReference: ${rule}`, [{ path: 'pspReference', rule }])
  return named
}

/**
 * A plain call's id: its kind, the attempt and its number among the attempt's plain calls of that
 * kind. Numbers are taken in turn, so a stored number n+1 proves its read saw calls 1 to n: two
 * instances deciding on different reads make the same id, and only one is stored.
 */
function plainId(kind: ModificationKind, attempt: AttemptRecord, asked: readonly ModificationRecord[]): string {
  const prefix = `${kind}-${fingerprintOf(attempt.id).slice(0, 16)}-`
  return `${prefix}${asked.filter((m) => m.id.startsWith(prefix)).length + 1}`
}

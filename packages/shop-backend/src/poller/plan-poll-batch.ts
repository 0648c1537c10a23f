/**
 * What one feed page writes, planned record by record against the ledger before the page's one
 * transaction (the store applies it: store/feed-page.ts).
 */
import { attemptNumberOf, holdsAnotherPayment } from '../ledger/attempt-in-metadata.js'
import { changeOf } from '../ledger/attempts.js'
import { retryAt } from '../lib/backoff.js'
import { sameMoney } from '../lib/same-money.js'
import type { BackendContext } from '../backend-context.js'
import { PATCH_FIELDS, patchWrites } from '../store/ledger-rows.js'
import { type FeedRecord, orderIdOfRecord } from '../updated-payments-feed.js'
import { readsAsFeedRecord } from './feed-record-check.js'
import type { AppliedChange, AttemptPatch, AttemptRecord, PollBatch, PollProblem } from '../store/ledger-store.js'
import {
  FAILED_STATES,
  movesIntoMoneyHeld,
  otherHoldingMoney,
  PAID_STATES,
  resultCodeOfFeed,
  stateOfPaymentStatus,
  transition,
  UNSETTLED_STATES,
} from '../ledger/transitions.js'

type Plan = { kind: 'apply'; applied: AppliedChange; next: AttemptRecord } | { kind: 'skip' } | { kind: 'problem'; reason: string }

/**
 * Which attempt a feed record is about: by pspReference, else (its answer was lost, or a step's
 * answer came without one) the attempt its metadata names. A record without that number (a payment
 * sent before the back end named attempts) goes to the order's one open attempt with no
 * pspReference; with several, guessing could end one attempt with another's payment, and a new key
 * would then go for it: a problem, tried again once all but one have their pspReference.
 */
async function attemptOf(context: BackendContext, record: FeedRecord): Promise<AttemptRecord | string> {
  const byPsp = await context.store.findAttemptByPspReference(record.pspReference)
  if (byPsp) return byPsp
  const orderId = orderIdOfRecord(record)
  if (orderId === undefined) return 'NO_ORDER_ID'
  const attempts = await context.store.listAttempts(orderId)
  const number = attemptNumberOf(record)
  if (number !== undefined) {
    const named = attempts.find((a) => a.number === number)
    if (named) return holdsAnotherPayment(named, record.pspReference) ? 'CONFLICT' : named
  } else {
    const open = attempts.filter(
      (a) => a.pspReference === undefined && (UNSETTLED_STATES.has(a.state) || a.state === 'action_required' || a.state === 'confirming'),
    )
    if (open.length === 1) return open[0]!
    if (open.length > 1) return 'AMBIGUOUS_ATTEMPT'
  }
  if (attempts.length === 0) return (await context.findOrder(orderId)) ? 'NO_ATTEMPT' : 'UNKNOWN_ORDER'
  return 'NO_ATTEMPT'
}

/** Whether another attempt of the attempt's order holds money, in the ledger or by this page's earlier records. */
async function paidByAnother(
  context: BackendContext,
  attempt: AttemptRecord,
  planned: ReadonlyMap<string, AttemptRecord>,
): Promise<boolean> {
  const attempts = (await context.store.listAttempts(attempt.orderId)).map((a) => planned.get(a.id) ?? a)
  return otherHoldingMoney(attempts, attempt.number) !== undefined
}

/** The attempt as it will be once `patch` is written (null clears a field; the version moves on). */
function afterPatch(attempt: AttemptRecord, patch: AttemptPatch): AttemptRecord {
  const next: Record<string, unknown> = { ...attempt, version: attempt.version + 1 }
  for (const [key] of PATCH_FIELDS) if (patchWrites(patch, key)) next[key] = patch[key] ?? undefined
  return next as unknown as AttemptRecord
}

/** `planned`: the attempts earlier records of the same page will have written (one page, one transaction). */
async function plan(context: BackendContext, record: FeedRecord, planned: ReadonlyMap<string, AttemptRecord>): Promise<Plan> {
  if (!readsAsFeedRecord(record)) return { kind: 'problem', reason: 'UNREADABLE_RECORD' }
  const to = stateOfPaymentStatus(record.status)
  if (!to) return { kind: 'problem', reason: 'UNKNOWN_STATUS' }
  const found = await attemptOf(context, record)
  if (typeof found === 'string') return { kind: 'problem', reason: found }
  // Two records of one attempt in one page (a capture, then the rest): the second builds on the first.
  const earlier = planned.get(found.id)
  // Two payments matched to one open attempt by the order id alone: the second waits for the first's commit.
  if (earlier?.pspReference !== undefined && earlier.pspReference !== record.pspReference) return { kind: 'problem', reason: 'CONFLICT' }
  const attempt = earlier ?? found
  if (!sameMoney(attempt.amount, record.amount)) return { kind: 'problem', reason: 'AMOUNT_MISMATCH' }
  const verdict = transition(attempt.state, to)
  // Failures are final in the ledger, but money the service says it took must not pass unseen: a person decides.
  if (verdict === 'ignore' && FAILED_STATES.has(attempt.state) && PAID_STATES.has(to))
    return { kind: 'problem', reason: 'PAID_AFTER_FAILURE' }
  // A second payment for one order (a bank redirect left for a card, then approved after all): refund one.
  // Only the move into money held: a paid attempt's capture or refund, or a payment given back, goes on.
  if (verdict === 'move' && movesIntoMoneyHeld(attempt.state, to) && (await paidByAnother(context, attempt, planned)))
    return { kind: 'problem', reason: 'PAID_TWICE' }
  const captured = record.capturedAmount.value
  const refunded = record.refundedAmount.value
  const amountsMoved = captured > attempt.capturedValue || refunded > attempt.refundedValue
  // An older record for an attempt already further along: nothing to write, nothing goes back.
  if (verdict === 'ignore' || (verdict === 'same' && !amountsMoved && attempt.pspReference !== undefined)) return { kind: 'skip' }
  const patch: AttemptPatch = {
    ...(verdict === 'move' ? { state: to, resultCode: resultCodeOfFeed(record.status, to) } : {}),
    pspReference: record.pspReference,
    capturedValue: Math.max(captured, attempt.capturedValue),
    refundedValue: Math.max(refunded, attempt.refundedValue),
    // A paid attempt no longer waits for a step: a details call still out is answered from the ledger.
    ...(verdict === 'move' && PAID_STATES.has(to) ? { detailsKey: null } : {}),
    updatedAt: context.now().toISOString(),
  }
  return {
    kind: 'apply',
    applied: {
      sequence: record.sequence,
      record: record as Record<string, unknown>,
      attemptId: attempt.id,
      expectedVersion: attempt.version,
      patch,
      change: changeOf(attempt, patch),
    },
    next: afterPatch(attempt, patch),
  }
}

function problemTries(problems: readonly PollProblem[], sequence: number): number {
  return problems.find((p) => p.sequence === sequence)?.tries ?? 0
}

/** Plans each record on its own: one record's failure (a store error included) becomes a problem, not a stop. */
export async function planPollBatch(
  context: BackendContext,
  records: readonly FeedRecord[],
  known: readonly PollProblem[],
  cursor?: number,
): Promise<PollBatch> {
  const at = context.now()
  const applied: AppliedChange[] = []
  const skipped: number[] = []
  const problems: Array<Omit<PollProblem, 'tries'>> = []
  const written = new Map<string, AttemptRecord>()
  for (const record of records) {
    let planned: Plan
    try {
      planned = await plan(context, record, written)
    } catch {
      planned = { kind: 'problem', reason: 'STORE_ERROR' }
    }
    if (planned.kind === 'apply') {
      applied.push(planned.applied)
      written.set(planned.applied.attemptId, planned.next)
    } else if (planned.kind === 'skip') skipped.push(record.sequence)
    else
      problems.push({
        sequence: record.sequence,
        change: record as Record<string, unknown>,
        reason: planned.reason,
        nextTryAt: retryAt(at, problemTries(known, record.sequence)),
      })
  }
  const batch: PollBatch = { ...(cursor === undefined ? {} : { cursor }), applied, skipped, problems, resolved: [], at: at.toISOString() }
  return batch
}

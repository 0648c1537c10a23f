// The feed asked about one order when a lost answer or a stale claim leaves its outcome open.
import type { BrowserPaymentResult } from '@card-jwe/payment-validator'
import { orderIdOfRecord } from '../updated-payments-feed.js'
import type { AttemptRecord } from '../store/ledger-store.js'
import { FAILED_STATES, transition } from './transitions.js'
import type { BackendContext } from '../backend-context.js'
import { browserAnswer, changeOf, compareAndSetQueueing, paidAttempt, pspReferencesOf } from './attempts.js'
import { releaseClaim } from './details-claim.js'
import { outcomePending } from './refusals.js'

/**
 * The service says the payment these details are for is final, and its answer was lost: the feed
 * knows. Paid: that answer. Failed (the feed told it): that answer. Otherwise the result is the
 * service's and not yet the ledger's (the feed may lag the payments API): every attempt still at a
 * step is `confirming` until the feed tells it, so no new Pay goes beside a payment that may be paid.
 */
export async function settledByFeed(context: BackendContext, attempt: AttemptRecord, key: string): Promise<BrowserPaymentResult> {
  const read = await readFeedFor(context, attempt.orderId)
  const attempts = await context.store.listAttempts(attempt.orderId)
  const paid = paidAttempt(attempts)
  if (paid) return browserAnswer(paid)
  const current = attempts.find((a) => a.id === attempt.id)
  // The claim holder failed, but the details may have been another tab's step (a bank's return after
  // this card's refusal): while one waits and the feed is unread, that payment may be the paid one.
  const anotherAtAStep = attempts.some((a) => a.id !== attempt.id && (a.state === 'action_required' || a.state === 'confirming'))
  if (current && FAILED_STATES.has(current.state) && (!anotherAtAStep || read === 'clear')) {
    // Final and failed: nothing more goes for it, so its claim must not hold the next Pay for a minute.
    await releaseClaim(context, attempt.id, key)
    return browserAnswer(current)
  }
  for (const atStep of attempts) if (atStep.state === 'action_required') await confirmFromFeed(context, atStep)
  // Nothing can go for the order while one of its attempts is confirming: the claim has no more to hold.
  await releaseClaim(context, attempt.id, key)
  throw outcomePending()
}

/** Moves an attempt at a step to `confirming` (the shop hears it), unless another writer moved it on first. */
async function confirmFromFeed(context: BackendContext, attempt: AttemptRecord): Promise<void> {
  for (let current: AttemptRecord | undefined = attempt; current; current = await context.store.findAttempt(attempt.id)) {
    if (transition(current.state, 'confirming') !== 'move') return
    const patch = { state: 'confirming', updatedAt: context.now().toISOString() } as const
    if (await compareAndSetQueueing(context, current, patch, changeOf(current, patch))) return
  }
}

/**
 * One poll of the feed. `clear`: it was read to its end (by this instance, or, when another holds
 * the poller's lease, read here without applying) and shows nothing of the order that the ledger
 * has not applied. `pending`: not read, or news for the order waits for the lease holder's poll.
 */
export async function readFeedFor(context: BackendContext, orderId: string): Promise<'clear' | 'pending'> {
  const report = await context.pollNow()
  // A poll that failed, or stopped with the feed unread, has not looked at everything.
  if (report.failed !== undefined || report.moreToRead) return 'pending'
  // A record the poller kept as a problem (a conflict with the claim's own write, a store error) is
  // behind the cursor: news about the order all the same.
  const references = new Set(pspReferencesOf(await context.store.listAttempts(orderId)))
  const aboutOrder = (record: Readonly<Record<string, unknown>>) =>
    orderIdOfRecord(record) === orderId || references.has(String(record.pspReference))
  // The cursor before the problems: the lease holder commits a page's problems and the cursor past
  // them in one write, so a page committed between the two reads shows in the one or the other.
  const cursor = report.leaseHeldBy === undefined ? undefined : await context.store.readCursor()
  if ((await context.store.listProblems()).some((p) => aboutOrder(p.change))) return 'pending'
  // This instance polled under its own lease: nothing is committed behind its back.
  if (cursor === undefined) return 'clear'
  try {
    const service = await context.service()
    let after = cursor
    for (let pages = 0; pages < FEED_PAGES_TO_LOOK_AT; pages++) {
      const page = await service.updatedPayments({ after, limit: 100 })
      // A record the port could not read may be about the order too: it is news all the same.
      if ([...page.payments, ...(page.unreadable ?? []).map((u) => u.record)].some(aboutOrder)) return 'pending'
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

// The feed asked about one order when a lost answer or a stale claim leaves its outcome open.
import { ShopBackendError } from '../errors.js'
import type { BrowserPaymentResult } from '@card-jwe/payment-validator'
import { orderIdOfRecord, recordsOf } from '../updated-payments-feed.js'
import type { AttemptRecord } from '../store/ledger-store.js'
import { FAILED_STATES } from './transitions.js'
import type { BackendContext } from '../backend-context.js'
import { browserAnswer, paidAttempt, pspReferencesOf } from './attempts.js'
import { releaseClaim } from './details-claim.js'
import { outcomePending } from './refusals.js'

/**
 * The service says the payment these details are for is final, and its answer was lost: the feed
 * knows. Paid: that answer. Failed (the feed told it): that answer. Otherwise the result may not be
 * in the feed yet (it may lag the payments API): the claim stays, so no new Pay goes for the order
 * until it goes stale and a feed read then shows nothing (details-claim.ts), and the page hears
 * "being confirmed" while the feed is unread, or that this payment ended.
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
  if (read !== 'clear') throw outcomePending()
  // Which payment the details were for, and its result, the ledger cannot tell; its claim is kept
  // (marked unanswered by the caller), so a new Pay waits for the feed as after any open call.
  throw new ShopBackendError('NOT_AWAITING_DETAILS', 'orderId: this payment already has its final result')
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
      if (recordsOf(page).some(aboutOrder)) return 'pending'
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

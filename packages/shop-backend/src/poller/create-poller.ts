import { signatureRefusalWords, withSignatureWords } from '../lib/signature-refusal.js'
import type { BackendContext } from '../backend-context.js'
import { type FeedRecord, recordsOf } from '../updated-payments-feed.js'
import { planPollBatch } from './plan-poll-batch.js'
import { sayPaidTwiceAfter } from './paid-twice-after.js'
import { LeaseLostError, type PollBatch, type PollProblem } from '../store/ledger-store.js'
import { errorCodeOf } from '../store/error-code.js'
import { notePollRead, notePollRefused } from './poll-read-at.js'

/** What one poll did. */
export interface PollReport {
  /** Feed records written to the ledger. */
  readonly applied: number
  /** Records with nothing to write (already further along, a repeat). */
  readonly skipped: number
  /** Records that could not be applied now (kept and retried). */
  readonly problems: readonly Pick<PollProblem, 'sequence' | 'reason'>[]
  /** Set when the poll itself failed (the service unreachable, the store down, the lease lost mid-page); the cursor did not move. */
  readonly failed?: string
  /** Set when another instance holds the poller's lease: this poll read nothing (that instance polls). */
  readonly leaseHeldBy?: string
  /** Set when the poll stopped at its page limit with more in the feed: the next poll goes on from the cursor. */
  readonly moreToRead?: boolean
}

/** Options of {@link Poller.start}. */
export interface PollerStartOptions {
  /** Between polls; default 5 s. */
  readonly intervalMs?: number
  /**
   * How long the poller's lease lasts without a renewal; default 30 s (at least 3 intervals). The
   * holder renews it before each feed page; another instance takes over at most this long after
   * the holder died. A page whose lease expired before its commit is not committed.
   */
  readonly leaseMs?: number
  /** Feed pages (100 records each) one poll reads at most; default {@link DEFAULT_MAX_PAGES_PER_POLL}. */
  readonly maxPagesPerPoll?: number
}

/** The updated-payments poller (spec: "Events": polling only). */
export interface Poller {
  /** One poll now; the timer's polls and these run one after the other, never together. */
  pollNow(): Promise<PollReport>
  /**
   * Polls every `intervalMs` (default 5 s) until `stop`, while holding the lease (one instance
   * polls at a time; the others' ticks find it held and read nothing until it expires).
   */
  start(options?: PollerStartOptions): void
  /**
   * Stops the timer and gives the lease up, so another instance (or this one, restarted) takes over
   * at its next tick; resolves once the lease is given up. Call it when the process is asked to end.
   */
  stop(): Promise<void>
  /** This poller's id as a lease holder (random per poller). */
  readonly holder: string
  /** Records kept as problems, for the merchant's report. */
  problems(): Promise<PollProblem[]>
}

/** How often the poller reads the feed unless `start` says otherwise. */
export const DEFAULT_POLL_INTERVAL_MS = 5_000
/** The poller lease's default time: see {@link PollerStartOptions.leaseMs}. */
export const DEFAULT_POLLER_LEASE_MS = 30_000
/** A poll's page limit unless `start` says otherwise (100,000 records); the next poll reads on from the cursor. */
export const DEFAULT_MAX_PAGES_PER_POLL = 1_000
/** The lease's name in the store. */
export const POLLER_LEASE = 'updated-payments-poller'
/** Records per feed page. */
const PAGE_SIZE = 100

/**
 * Reads the feed from the stored cursor. Each page is one store transaction: the changes applied
 * (compare-and-set), the sequences seen (a repeat is never applied twice), the records that could
 * not be applied (kept as problems, retried with backoff) and the new cursor, so a bad record
 * never holds the cursor or the records after it. The shop hears of changes after the commit.
 */
export function createPoller(
  context: BackendContext,
  options: { readonly onProblem?: (problem: Pick<PollProblem, 'sequence' | 'reason'>) => void } = {},
) {
  let chain: Promise<unknown> = Promise.resolve()
  let timer: ReturnType<typeof setInterval> | undefined
  let leaseMs = DEFAULT_POLLER_LEASE_MS
  let maxPages = DEFAULT_MAX_PAGES_PER_POLL
  const holder = crypto.randomUUID()
  /** The last poll's failure code, if it failed. */
  let lastFailure: string | undefined
  const release = () => context.store.releaseLease(POLLER_LEASE, holder).catch(() => {})

  /** Who polled at this instance's last timed tick: said in the log when it changes, not at every tick. */
  let lastSeenHolder: string | undefined

  /** Takes or renews the lease; the holder's id when another instance has it. */
  async function lease(): Promise<string | undefined> {
    const { acquired, lease: held } = await context.store.acquireLease(POLLER_LEASE, holder, leaseMs, context.now().toISOString())
    if (timer && held.holder !== lastSeenHolder) {
      context.log(
        acquired
          ? `poller ${holder}: holds the lease ${POLLER_LEASE}; this instance polls`
          : `poller ${holder}: the lease ${POLLER_LEASE} is held by ${held.holder}; this instance waits`,
        'info',
        { component: 'poller', lease: POLLER_LEASE, holder, leaseHolder: held.holder, polls: acquired },
      )
      lastSeenHolder = held.holder
    }
    return acquired ? undefined : held.holder
  }

  async function once(): Promise<PollReport> {
    try {
      return await leased()
    } finally {
      // A poll outside the timer (pollNow) does not keep the lease: the instance that runs the timer polls.
      if (!timer) await release()
    }
  }

  async function leased(): Promise<PollReport> {
    let applied = 0
    let skipped = 0
    let moreToRead = false
    const problems: Array<Pick<PollProblem, 'sequence' | 'reason'>> = []
    const count = async (batch: PollBatch) => {
      // Committed only while this poller still holds the lease (checked in the same transaction).
      const claimed: PollBatch = { ...batch, lease: { name: POLLER_LEASE, holder, now: context.now().toISOString() } }
      const result = await context.store.applyChangesAndCursor(claimed)
      applied += batch.applied.length - result.conflicts.length - result.repeats.length
      skipped += batch.skipped.length + result.repeats.length
      for (const p of batch.problems) problems.push({ sequence: p.sequence, reason: p.reason })
      for (const sequence of result.conflicts) problems.push({ sequence, reason: 'CONFLICT' })
      await sayPaidTwiceAfter(context, batch, result)
    }
    try {
      // The feed is the shop's, not a store's: it is read from registration on, before the merchant set-up ends.
      const service = await context.service()
      lastFailure = undefined
      const other = await lease()
      if (other !== undefined) {
        await context.drainOutbox()
        return { applied, skipped, problems, leaseHeldBy: other }
      }
      // Problems due for another try first: an order created late, a store error that passed. At most a
      // page's worth a poll (the oldest due first), so a pile of them never outlasts the lease and the
      // feed is read every poll; the rest are due again at the next.
      const due = (await context.store.listProblems(context.now().toISOString())).slice(0, PAGE_SIZE)
      if (due.length > 0) {
        const batch = await planPollBatch(
          context,
          due.map((p) => p.change as FeedRecord),
          due,
        )
        await count({ ...batch, resolved: batch.skipped })
      }
      for (let pages = 0; ; pages++) {
        // Renewed before each page: a long poll keeps it, a holder that died lets it lapse.
        if (pages > 0 && (await lease()) !== undefined) throw new LeaseLostError(POLLER_LEASE)
        const after = await context.store.readCursor()
        const page = await service.updatedPayments({ after, limit: PAGE_SIZE })
        const known = await context.store.listProblems()
        // A record at or before the cursor was read before (a page the service gives again): its seen mark may be gone.
        // Records the port could not read go beside the rest: each becomes a problem, never a stop.
        const records = recordsOf(page)
        const unread = records.filter((record) => record.sequence > after)
        if (unread.length < records.length)
          context.log(`updated-payments gave ${records.length - unread.length} record(s) at or before the cursor; dropped`, 'warn', {
            component: 'poller',
            code: 'RECORD_BEHIND_CURSOR',
          })
        await count(await planPollBatch(context, unread, known, page.cursor))
        if (!page.hasMore) break
        if (pages + 1 >= maxPages) {
          moreToRead = true
          break
        }
      }
    } catch (error) {
      const failed = String(errorCodeOf(error))
      // Not registered yet is a state, not news: said when it begins, not at every interval.
      if (failed !== 'NOT_REGISTERED' || lastFailure !== failed)
        context.log(
          `poll failed (${withSignatureWords(failed)}); the cursor stays where it was`,
          failed === 'NOT_REGISTERED' ? 'info' : 'warn',
          {
            component: 'poller',
            code: failed,
          },
        )
      lastFailure = failed
      if (signatureRefusalWords(failed)) await notePollRefused(context, failed)
      await context.drainOutbox()
      return { applied, skipped, problems, failed }
    }
    await notePollRead(context)
    for (const problem of problems) {
      context.log(`updated-payments record ${problem.sequence} not applied (${problem.reason}); retried later`, 'warn', {
        component: 'poller',
        code: problem.reason,
        sequence: problem.sequence,
      })
      options.onProblem?.(problem)
    }
    // Said, so a backlog (the first poll after a long stop) is not mistaken for a caught-up feed.
    if (moreToRead)
      context.log(`poll stopped at its limit (${maxPages} feed pages); the next poll reads on from the cursor`, 'info', {
        component: 'poller',
        maxPagesPerPoll: maxPages,
      })
    await context.drainOutbox()
    return { applied, skipped, problems, ...(moreToRead ? { moreToRead } : {}) }
  }

  const poller: Poller = {
    pollNow() {
      const run = chain.then(once, once)
      chain = run
      return run
    },
    holder,
    start(startOptions = {}) {
      if (timer) return
      leaseMs = startOptions.leaseMs ?? Math.max(DEFAULT_POLLER_LEASE_MS, 3 * (startOptions.intervalMs ?? DEFAULT_POLL_INTERVAL_MS))
      maxPages = startOptions.maxPagesPerPoll ?? DEFAULT_MAX_PAGES_PER_POLL
      // A tick while the last tick's poll is still queued or running adds none: a feed slower than the
      // interval (an outage, each read to its deadline) must not pile polls up for requests to wait behind.
      let ticked: Promise<unknown> | undefined
      const tick = () => {
        if (ticked) return
        ticked = poller.pollNow().finally(() => {
          ticked = undefined
        })
      }
      timer = setInterval(tick, startOptions.intervalMs ?? DEFAULT_POLL_INTERVAL_MS)
      // A shop's process may end while the poller runs (Node: the timer does not hold it open).
      ;(timer as { unref?: () => void }).unref?.()
    },
    stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      lastSeenHolder = undefined
      const released = chain.then(release, release)
      chain = released
      return released
    },
    problems: () => context.store.listProblems(),
  }
  return poller
}

import { storeFailureOf } from './lib/store-failure.js'
import { type FeedRecord, orderIdOfRecord } from './payment-service.js'
import { type AppliedChange, type AttemptPatch, type AttemptRecord, LeaseLostError, type PollBatch, type PollProblem } from './store.js'
import { PAID_STATES, resultCodeOfState, stateOfPaymentStatus, transition, UNSETTLED_STATES } from './transitions.js'
import { changeOf } from './ledger/attempts.js'
import { PATCH_FIELDS, patchWrites } from './lib/ledger-rows.js'
import { retryAt } from './lib/backoff.js'
import type { BackendContext } from './lib/context.js'

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

type Plan = { kind: 'apply'; applied: AppliedChange; next: AttemptRecord } | { kind: 'skip' } | { kind: 'problem'; reason: string }

/** Which attempt a feed record is about: by pspReference, else (its answer was lost) the order's open attempt. */
async function attemptOf(context: BackendContext, record: FeedRecord): Promise<AttemptRecord | string> {
  const byPsp = await context.store.findAttemptByPspReference(record.pspReference)
  if (byPsp) return byPsp
  const orderId = orderIdOfRecord(record)
  if (orderId === undefined) return 'NO_ORDER_ID'
  const attempts = await context.store.listAttempts(orderId)
  // A payment made while its answer was lost: the attempt that holds no pspReference yet and was not refused.
  const open = [...attempts]
    .reverse()
    .find((a) => a.pspReference === undefined && (UNSETTLED_STATES.has(a.state) || a.state === 'action_required'))
  if (open) return open
  if (attempts.length === 0) return (await context.findOrder(orderId)) ? 'NO_ATTEMPT' : 'UNKNOWN_ORDER'
  return 'NO_ATTEMPT'
}

/** The attempt as it will be once `patch` is written (null clears a field; the version moves on). */
function afterPatch(attempt: AttemptRecord, patch: AttemptPatch): AttemptRecord {
  const next: Record<string, unknown> = { ...attempt, version: attempt.version + 1 }
  for (const [key] of PATCH_FIELDS) if (patchWrites(patch, key)) next[key] = patch[key] ?? undefined
  return next as unknown as AttemptRecord
}

/** `planned`: the attempts earlier records of the same page will have written (one page, one transaction). */
async function plan(context: BackendContext, record: FeedRecord, planned: ReadonlyMap<string, AttemptRecord>): Promise<Plan> {
  const to = stateOfPaymentStatus(record.status)
  if (!to) return { kind: 'problem', reason: 'UNKNOWN_STATUS' }
  const found = await attemptOf(context, record)
  if (typeof found === 'string') return { kind: 'problem', reason: found }
  // Two records of one attempt in one page (a capture, then the rest): the second builds on the first.
  const earlier = planned.get(found.id)
  // Two payments matched to one open attempt by the order id alone: the second waits for the first's commit.
  if (earlier?.pspReference !== undefined && earlier.pspReference !== record.pspReference) return { kind: 'problem', reason: 'CONFLICT' }
  const attempt = earlier ?? found
  if (attempt.amount.currency !== record.amount.currency || attempt.amount.value !== record.amount.value)
    return { kind: 'problem', reason: 'AMOUNT_MISMATCH' }
  const verdict = transition(attempt.state, to)
  const captured = record.capturedAmount.value
  const refunded = record.refundedAmount.value
  const amountsMoved = captured > attempt.capturedValue || refunded > attempt.refundedValue
  // An older record for an attempt already further along: nothing to write, nothing goes back.
  if (verdict === 'ignore' || (verdict === 'same' && !amountsMoved && attempt.pspReference !== undefined)) return { kind: 'skip' }
  const patch: AttemptPatch = {
    ...(verdict === 'move' ? { state: to, resultCode: resultCodeOfState(to) } : {}),
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
async function planBatch(context: BackendContext, records: readonly FeedRecord[], known: readonly PollProblem[], cursor?: number) {
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
        const batch = await planBatch(
          context,
          due.map((p) => p.change as FeedRecord),
          due,
        )
        await count({ ...batch, resolved: batch.skipped })
      }
      for (let pages = 0; ; pages++) {
        // Renewed before each page: a long poll keeps it, a holder that died lets it lapse.
        if (pages > 0 && (await lease()) !== undefined) throw new LeaseLostError(POLLER_LEASE)
        const page = await service.updatedPayments({ after: await context.store.readCursor(), limit: PAGE_SIZE })
        const known = await context.store.listProblems()
        await count(await planBatch(context, page.payments, known, page.cursor))
        if (!page.hasMore) break
        if (pages + 1 >= maxPages) {
          moreToRead = true
          break
        }
      }
    } catch (error) {
      const failed = (error as { serviceCode?: string })?.serviceCode ?? storeFailureOf(error).code
      // Not registered yet is a state, not news: said when it begins, not at every interval.
      if (failed !== 'NOT_REGISTERED' || lastFailure !== failed) context.log(`poll failed (${failed}); the cursor stays where it was`)
      lastFailure = String(failed)
      await context.drainOutbox()
      return { applied, skipped, problems, failed: String(failed) }
    }
    for (const problem of problems) {
      context.log(`updated-payments record ${problem.sequence} not applied (${problem.reason}); retried later`)
      options.onProblem?.(problem)
    }
    // Said, so a backlog (the first poll after a long stop) is not mistaken for a caught-up feed.
    if (moreToRead) context.log(`poll stopped at its limit (${maxPages} feed pages); the next poll reads on from the cursor`)
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
      timer = setInterval(() => void poller.pollNow(), startOptions.intervalMs ?? DEFAULT_POLL_INTERVAL_MS)
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

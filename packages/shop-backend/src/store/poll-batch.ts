import type { LeaseClaim } from './lease.js'
import type { AttemptPatch, OrderChange } from './records.js'

/** A feed record the poller could not apply: kept, retried with backoff, never in the way of later ones. */
export interface PollProblem {
  /** The feed record's sequence number. */
  readonly sequence: number
  /** The feed record as it came (no card data: status, amounts, references, metadata). */
  readonly change: Readonly<Record<string, unknown>>
  /**
   * `UNKNOWN_ORDER`, `NO_ORDER_ID`, `NO_ATTEMPT`, `AMBIGUOUS_ATTEMPT`, `UNKNOWN_STATUS`, `AMOUNT_MISMATCH`,
   * `CONFLICT`, `STORE_ERROR`...
   */
  readonly reason: string
  /** Tries so far. */
  readonly tries: number
  /** ISO 8601: the next try. */
  readonly nextTryAt: string
}

/** One feed record applied as a compare-and-set. */
export interface AppliedChange {
  /** The feed record's sequence number. */
  readonly sequence: number
  /** The feed record, kept as a problem should the compare-and-set lose. */
  readonly record: Readonly<Record<string, unknown>>
  /** The attempt the record matched. */
  readonly attemptId: string
  /** Its version when the poller read it. */
  readonly expectedVersion: number
  /** What the record changes. */
  readonly patch: AttemptPatch
  /** Queued in the outbox in the same transaction. */
  readonly change?: OrderChange
}

/** What one poll commits, in one transaction. */
export interface PollBatch {
  /** When set, the batch commits only while this holder still holds the lease ({@link LeaseLostError} otherwise). */
  readonly lease?: LeaseClaim
  /** The feed's new cursor; absent when only problems are retried. Never moves back. */
  readonly cursor?: number
  /** Records that change an attempt: each a compare-and-set, its change queued for the shop. */
  readonly applied: readonly AppliedChange[]
  /** Records with nothing to write (already further along, a repeat): marked seen. */
  readonly skipped: readonly number[]
  /** Recorded or re-recorded (tries + 1, next try at `nextTryAt`); not marked seen. */
  readonly problems: readonly Omit<PollProblem, 'tries'>[]
  /** Problems now applied or skipped: removed. */
  readonly resolved: readonly number[]
  /** ISO 8601, now: the time written with seen records and problems. */
  readonly at: string
}

/** What {@link LedgerStore.applyChangesAndCursor} could not write as planned. */
export interface PollBatchResult {
  /** Applied entries whose compare-and-set lost (another writer was first): recorded as `CONFLICT` problems. */
  readonly conflicts: readonly number[]
  /** Sequences already seen: nothing written for them. */
  readonly repeats: readonly number[]
}

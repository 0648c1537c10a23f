/**
 * How a store applies a poll batch (a page of the feed), once for every store: the core decides,
 * the store runs the steps inside the one transaction it gives the batch.
 */
import { checkLease } from './lease.js'
import type { PollBatch, PollBatchResult, PollProblem } from './poll-batch.js'
import { changes, type LedgerRule, step } from './steps.js'

const resolve = (sequence: number) => changes('resolveProblem', [sequence])

/** Recorded, or recorded again: tries + 1. */
function* record(problem: Omit<PollProblem, 'tries'>): LedgerRule<void> {
  yield* changes('recordProblem', [problem.sequence, JSON.stringify(problem.change), problem.reason, problem.nextTryAt])
  // Again on a fresh snapshot: PostgreSQL's insert may have waited for a dismissal that committed meanwhile.
  yield* changes('dropDismissedProblem', [problem.sequence])
}

// How long a seen sequence is kept: the feed is read only after the cursor, so a mark a month behind
// it guards nothing (docs/decisions.md, "Forgetting seen sequences"; not JSDoc: typings name no repository file).
export const SEEN_KEPT_MS = 30 * 24 * 60 * 60 * 1000

/** Marks `sequence` seen at `at`: false when it was already (a repeat of the feed, or another poller's). */
function* markSeen(sequence: number, at: string): LedgerRule<boolean> {
  return (yield* changes('markSeen', [sequence, at])) === 1
}

/**
 * Changes, seen sequences, problems and the cursor, after the lease check. A record is marked seen
 * before its compare-and-set: of two writers of one sequence the second finds the mark and applies
 * nothing, so amounts never move twice. A lost compare-and-set takes its mark back and is kept as a
 * `CONFLICT` problem; the rest of the batch still commits. Marks older than {@link SEEN_KEPT_MS},
 * behind the cursor, are forgotten a few at a time.
 */
export function* applyFeedPage(batch: PollBatch): LedgerRule<PollBatchResult> {
  if (batch.lease) yield* checkLease(batch.lease)
  const conflicts: number[] = []
  const repeats: number[] = []
  for (const applied of batch.applied) {
    const { sequence } = applied
    if (!(yield* markSeen(sequence, batch.at))) {
      repeats.push(sequence)
      yield* resolve(sequence)
      continue
    }
    const update = { id: applied.attemptId, expectedVersion: applied.expectedVersion, patch: applied.patch, change: applied.change }
    if (yield* step((s) => s.compareAndSet(update))) {
      yield* resolve(sequence)
    } else {
      conflicts.push(sequence)
      yield* changes('unmarkSeen', [sequence])
      yield* record({ sequence, change: applied.record, reason: 'CONFLICT', nextTryAt: batch.at })
    }
  }
  for (const sequence of batch.skipped) {
    yield* markSeen(sequence, batch.at)
    yield* resolve(sequence)
  }
  for (const problem of batch.problems) yield* record(problem)
  for (const sequence of batch.resolved) yield* resolve(sequence)
  if (batch.cursor !== undefined) yield* changes('moveCursor', [batch.cursor])
  // A few of the oldest marks a batch, so the table holds about SEEN_KEPT_MS of the feed, not all of it.
  yield* changes('forgetSeen', [new Date(Date.parse(batch.at) - SEEN_KEPT_MS).toISOString()])
  return { conflicts, repeats }
}

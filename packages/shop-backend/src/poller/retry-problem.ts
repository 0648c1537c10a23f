/**
 * One poll problem tried again now, at the operator's asking: the same planning as the poller's
 * (plan-poll-batch.ts) for that one record, committed the same way. No lease is needed: the record's
 * seen mark and the attempt's compare-and-set keep it from being applied twice, whoever polls meanwhile.
 */
import type { BackendContext } from '../backend-context.js'
import { ShopBackendError } from '../errors.js'
import type { FeedRecord } from '../updated-payments-feed.js'
import { planPollBatch } from './plan-poll-batch.js'
import { sayPaidTwiceAfter } from './paid-twice-after.js'

/** What a retried problem came to. */
export interface ProblemRetry {
  /** The feed record's sequence. */
  readonly sequence: number
  /**
   * `applied`: written to the ledger (the shop hears the change); `nothing-to-apply`: the ledger was
   * already there, the problem is resolved; `not-applied`: still a problem, tried again later.
   */
  readonly outcome: 'applied' | 'nothing-to-apply' | 'not-applied'
  /** Why it is still a problem (`not-applied`). */
  readonly reason?: string
}

/** Tries the open problem `sequence` now; 404 `NOT_FOUND` when there is none (resolved or dismissed meanwhile). */
export async function retryProblem(context: BackendContext, sequence: number): Promise<ProblemRetry> {
  const problem = (await context.store.listProblems()).find((p) => p.sequence === sequence)
  if (!problem) throw new ShopBackendError('NOT_FOUND', 'sequence: no open poll problem with this sequence')
  const batch = await planPollBatch(context, [problem.change as FeedRecord], [problem])
  const result = await context.store.applyChangesAndCursor({ ...batch, resolved: batch.skipped })
  await sayPaidTwiceAfter(context, batch, result)
  // The change it queued reaches the shop before the operator hears "applied".
  await context.drainOutbox()
  if (result.conflicts.length > 0) return { sequence, outcome: 'not-applied', reason: 'CONFLICT' }
  const stillOpen = batch.problems[0]
  if (stillOpen) return { sequence, outcome: 'not-applied', reason: stillOpen.reason }
  return { sequence, outcome: batch.applied.length > 0 && result.repeats.length === 0 ? 'applied' : 'nothing-to-apply' }
}

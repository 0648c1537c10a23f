// After a feed page commits: a payment it applied beside another attempt holding money is said in the log.
import type { BackendContext } from '../backend-context.js'
import { sayIfPaidTwice } from '../ledger/paid-twice.js'
import { movesIntoMoneyHeld } from '../ledger/transitions.js'
import type { PollBatch, PollBatchResult } from '../store/ledger-store.js'

/**
 * The plan checked the order's other attempts before the commit; an answer stored meanwhile (a card's
 * call out while the page was planned) is seen only now, read after the commit as the request reads after its own.
 */
export async function sayPaidTwiceAfter(
  context: Pick<BackendContext, 'store' | 'log'>,
  batch: PollBatch,
  result: PollBatchResult,
): Promise<void> {
  const written = batch.applied.filter((a) => !result.conflicts.includes(a.sequence) && !result.repeats.includes(a.sequence))
  for (const { change } of written)
    if (change && movesIntoMoneyHeld(change.previousState, change.state)) await sayIfPaidTwice(context, change.orderId, change.attempt)
}

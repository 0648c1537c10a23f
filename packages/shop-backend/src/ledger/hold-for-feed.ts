// An order held as being confirmed while a payment it may have made is named by nothing but the feed, later.
import type { BackendContext } from '../backend-context.js'
import type { AttemptRecord } from '../store/ledger-store.js'
import { changeOf, compareAndSetQueueing } from './attempts.js'
import { transition } from './transitions.js'

/** The attempts to hold: the claim holder; where it has failed (the claim sits on the latest), those at a step without a reference. */
function toHold(attempts: readonly AttemptRecord[], holderId: string): AttemptRecord[] {
  const holder = attempts.find((a) => a.id === holderId)
  if (holder && transition(holder.state, 'confirming') === 'move') return [holder]
  return attempts.filter((a) => a.state === 'action_required' && a.pspReference === undefined)
}

/**
 * Moves the attempts the payment may be (see {@link toHold}) to `confirming`, taking no reference,
 * so no Pay and no other step goes until the feed names it; read again after a lost write. With
 * none at a step the payment is no step of this order's: nothing is held but the claim.
 */
export async function holdForFeed(context: BackendContext, orderId: string, holderId: string): Promise<void> {
  for (let tries = 0; tries < 3; tries++) {
    let lost = false
    for (const attempt of toHold(await context.store.listAttempts(orderId), holderId)) {
      const patch = { state: 'confirming', updatedAt: context.now().toISOString() } as const
      if (!(await compareAndSetQueueing(context, attempt, patch, changeOf(attempt, patch)))) lost = true
    }
    if (!lost) return
  }
}

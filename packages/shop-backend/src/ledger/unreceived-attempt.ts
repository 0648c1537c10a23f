// An open attempt whose call never reached the service: ended, so the shopper may pay another way.
import type { AttemptRecord } from '../store/ledger-store.js'
import type { BackendContext } from '../backend-context.js'
import { changeOf, compareAndSetQueueing } from './attempts.js'
import { DETAILS_CLAIM_STALE_MS } from './details-claim.js'
import { readFeedFor } from './feed-check.js'

/** The error code of an attempt ended because the service never received its call. */
export const NOT_RECEIVED = 'NOT_RECEIVED'

/**
 * Ends an open attempt that holds no pspReference once no call under its key can still be out (its
 * last call is older than any call lasts) and a read of the feed shows no payment for the order:
 * the service never took it, so nothing can be charged under its key. Without this, an attempt whose
 * every call was lost, or whose resend is refused (the method since turned off), would refuse every
 * other method for good. `true`: the attempt was ended or moved meanwhile (judge it again);
 * `false`: its outcome is still open.
 */
export async function endIfNeverReceived(context: BackendContext, attempt: AttemptRecord): Promise<boolean> {
  if (attempt.pspReference !== undefined) return false
  if (context.now().getTime() - Date.parse(attempt.updatedAt) < DETAILS_CLAIM_STALE_MS) return false
  if ((await readFeedFor(context, attempt.orderId)) !== 'clear') return false
  const patch = { state: 'error', errorCode: NOT_RECEIVED, updatedAt: context.now().toISOString() } as const
  // A feed read that applied news, or another writer, moved the version on: the caller reads again either way.
  if (!(await compareAndSetQueueing(context, attempt, patch, changeOf(attempt, patch)))) return true
  context.log(`order ${attempt.orderId}: attempt ${attempt.number} never reached the service; ended`, 'warn', {
    component: 'ledger',
    code: NOT_RECEIVED,
    orderId: attempt.orderId,
  })
  return true
}

// One details call per order at a time, across instances: the claim on an attempt, its key and its age.
import type { AttemptRecord } from '../store/ledger-store.js'
import type { BackendContext } from '../backend-context.js'
import { outcomePending } from './refusals.js'

/**
 * A details call's idempotency key: per attempt, step and details. The same details again (a resend
 * after a lost answer) carry the same key; another window's details for the order never share it.
 */
export const detailsKeyOf = (attempt: AttemptRecord, detailsFingerprint: string) =>
  `${attempt.idempotencyKey}-d${attempt.detailsStep + 1}-${detailsFingerprint.slice(0, 12)}`

/** How long a claimed details call may still be out: past every default deadline of the service client (15 s). */
export const DETAILS_CLAIM_STALE_MS = 60_000

/**
 * The longest a call to the service may last, retries included: a call still out when another
 * instance takes its claim as dead could pay a second time, so every call ends well inside it.
 */
export const MAX_CALL_DEADLINE_MS = DETAILS_CLAIM_STALE_MS / 2

/** How long, in all, a details submission waits for another window's call to the service to end. */
const DETAILS_WAIT_MS = 2_000

const DETAILS_WAIT_STEP_MS = 100

/**
 * Waits one step for another's call to the service to end (a claim, a payment call out); once
 * DETAILS_WAIT_MS is spent, 503 OUTCOME_PENDING. One per request.
 */
export function waitForOthers(context: BackendContext): () => Promise<void> {
  let waitedMs = 0
  return async () => {
    if (waitedMs >= DETAILS_WAIT_MS) throw outcomePending()
    await context.sleep(DETAILS_WAIT_STEP_MS)
    waitedMs += DETAILS_WAIT_STEP_MS
  }
}

/** A claim older than any call lasts: its instance died or its answer was lost. */
export const claimIsStale = (context: BackendContext, attempt: AttemptRecord) =>
  context.now().getTime() - Date.parse(attempt.updatedAt) >= DETAILS_CLAIM_STALE_MS

/**
 * The claim once its call under `key` ended without an answer: the same details may go again at once
 * (a reload of the return page). While the call is out the claim is `key` itself, and the same
 * details on another instance wait for its answer like any others: payment-details is never sent
 * twice at once. Not a key (a space): nothing is ever sent under it.
 */
export const unansweredClaim = (key: string) => `${key} unanswered`

/** Clears the attempt's details claim if it is still this call's. */
export const releaseClaim = (context: BackendContext, attemptId: string, key: string) => replaceClaim(context, attemptId, key, null)

/** Marks the claim of a call that ended without an answer ({@link unansweredClaim}), if it is still this call's. */
export const markUnanswered = (context: BackendContext, attemptId: string, key: string) =>
  replaceClaim(context, attemptId, key, unansweredClaim(key))

async function replaceClaim(context: BackendContext, attemptId: string, key: string, next: string | null): Promise<void> {
  // Again when another writer (the poller) moved the attempt meanwhile: a claim left behind would
  // hold the order for a minute.
  for (let tries = 0; tries < 5; tries++) {
    const current = await context.store.findAttempt(attemptId)
    if (current?.detailsKey !== key) return
    const patch = { detailsKey: next, updatedAt: context.now().toISOString() }
    if (await context.store.compareAndSet(current.id, current.version, patch)) return
  }
}

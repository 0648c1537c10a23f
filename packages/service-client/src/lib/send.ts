import type { FetchLike, FetchLikeInit } from '../fetch-like.js'
import { backoffMs, type Backoff } from './backoff.js'
import { retryAfterMs } from './retry-after.js'

/** Answers that mean "not now": retried. Any other status is the service's decision (a 500 included). */
export const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504])
/**
 * A key still in use (409) once an attempt of this call went unanswered (or a gateway answered 502
 * or 504): most likely that attempt, still running at the service. Retried under the key for its
 * answer, not read as a refusal.
 */
export const IN_USE_STATUS = 409

/** How one call is sent and retried. */
export interface SendPolicy {
  /** For the whole call: every attempt and every wait. */
  readonly deadlineMs: number
  /** For one attempt, from the request to the last byte of the answer. */
  readonly attemptTimeoutMs: number
  /** False: one attempt only. */
  readonly retried: boolean
  readonly backoff: Backoff
  readonly random: () => number
  readonly sleep: (ms: number) => Promise<void>
  readonly fetch: FetchLike
}

/** One request; `headers` is asked again for each attempt (each is signed afresh). */
export interface OutgoingRequest {
  readonly method: string
  readonly url: string
  readonly headers: () => Promise<Record<string, string>>
  readonly body: string | undefined
}

/** A whole answer: status, headers and the complete body. */
export interface Answer {
  readonly kind: 'answer'
  readonly status: number
  readonly headers: { get(name: string): string | null }
  readonly text: string
}

/** No whole answer: the connection failed, or the time ran out (`timedOut`). */
export interface NoAnswer {
  readonly kind: 'no-answer'
  readonly timedOut: boolean
  readonly cause: unknown
}

/** The last attempt's outcome and how many attempts were made. */
export interface Sent {
  readonly outcome: Answer | NoAnswer
  readonly attempts: number
  /** A try before the last got no answer (or a gateway's 502 or 504): the service may have acted on it. */
  readonly unanswered: boolean
}

const TIMED_OUT = Symbol('timed out')

/** One attempt, ended at `timeoutMs` even when a fetch ignores its signal or a body stalls. */
async function attempt(request: OutgoingRequest, fetch: SendPolicy['fetch'], timeoutMs: number): Promise<Answer | NoAnswer> {
  const controller = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(TIMED_OUT)
      controller.abort()
    }, timeoutMs)
  })
  expired.catch(() => {})
  try {
    const init: FetchLikeInit = {
      method: request.method,
      headers: await request.headers(),
      signal: controller.signal,
      redirect: 'manual',
      ...(request.body === undefined ? {} : { body: request.body }),
    }
    const response = await Promise.race([fetch(request.url, init), expired])
    const text = await Promise.race([response.text(), expired]).catch((error: unknown) => {
      response.body?.cancel().catch(() => {})
      throw error
    })
    return { kind: 'answer', status: response.status, headers: response.headers, text }
  } catch (cause) {
    const timedOut = controller.signal.aborted
    return { kind: 'no-answer', timedOut, cause: cause === TIMED_OUT ? undefined : cause }
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Sends until an answer that is not "not now", or until the next wait would not fit in the
 * deadline. Waits: the answer's `Retry-After` when it has one, else the backoff. Time is counted as
 * attempts took plus waits as planned (or as slept, if longer), so an injected `sleep` that returns
 * at once still spends the deadline as the real one would.
 */
export async function send(request: OutgoingRequest, policy: SendPolicy): Promise<Sent> {
  let spent = 0
  let attempts = 0
  let unanswered = false
  for (;;) {
    attempts++
    const started = performance.now()
    const outcome = await attempt(request, policy.fetch, Math.max(1, Math.min(policy.attemptTimeoutMs, policy.deadlineMs - spent)))
    spent += performance.now() - started
    const again = outcome.kind === 'no-answer' || RETRIED_STATUSES.has(outcome.status) || (unanswered && outcome.status === IN_USE_STATUS)
    if (!again || !policy.retried) return { outcome, attempts, unanswered }
    const asked = outcome.kind === 'answer' ? retryAfterMs(outcome.headers.get('retry-after'), Date.now()) : undefined
    const wait = asked ?? backoffMs(attempts, policy.backoff, policy.random)
    if (spent + wait >= policy.deadlineMs) return { outcome, attempts, unanswered }
    const slept = performance.now()
    await policy.sleep(wait)
    spent += Math.max(wait, performance.now() - slept)
    if (spent >= policy.deadlineMs) return { outcome, attempts, unanswered }
    // A gateway's 502 or 504 may have passed the request on: the service may be running it too.
    unanswered ||= outcome.kind === 'no-answer' || outcome.status === 502 || outcome.status === 504
  }
}

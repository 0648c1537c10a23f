import type { Backoff } from './lib/backoff.js'
import { ENDPOINTS } from './endpoints.js'

/** The local sandbox's port unless told otherwise (`pnpm sandbox`, the demo's embedded sandbox). */
export const SANDBOX_DEFAULT_PORT = 8790
/** Where the client talks by default: the local sandbox (`pnpm sandbox`). */
export const SANDBOX_BASE_URL = `http://127.0.0.1:${SANDBOX_DEFAULT_PORT}`
/** Registration's path: ours, since the spec does not show it (unsigned, `{shopUrl, key, secret, readyMadeStore?}`). */
export const REGISTRATION_PATH = ENDPOINTS.register.path
/**
 * How long one call may take in all, retries and waits included: about what a shopper waiting on
 * "Pay" bears before the shop should say something.
 */
export const DEFAULT_DEADLINE_MS = 15_000
/** How long one attempt may take, to the answer's last byte; three fit in the default deadline. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 5_000
/**
 * Registration's time unless the client's options set one: the service calls the shop's two
 * settings endpoints before it answers, 10 s each at most (decisions.md), so 5 s would give up on
 * registrations that are still running.
 */
export const REGISTRATION_TIMEOUT_MS = 25_000
/** Waits between attempts: 0.5 s doubling to 5 s, each 50-100 % of that (jitter). */
export const DEFAULT_BACKOFF: Backoff = Object.freeze({ initialMs: 500, maxMs: 5_000 })

/**
 * Repeated wrong Basic credentials on the shop-side settings endpoints are slowed down per client
 * address (by the shop back end, `@card-jwe/shop-backend`): the n-th failure in a row waits
 * FIRST_FAILURE_DELAY_MS * 2^(n-1), at most MAX_FAILURE_DELAY_MS, before its 401 goes out; the
 * demo announces the wait in `x-failure-delay-ms`. Guessing the pair then costs hours, not seconds.
 */
export const FIRST_FAILURE_DELAY_MS = 250
export const MAX_FAILURE_DELAY_MS = 8_000

/** The wait before the n-th failure in a row is answered (n starts at 1). */
export function failureDelayMs(failures: number): number {
  return Math.min(MAX_FAILURE_DELAY_MS, FIRST_FAILURE_DELAY_MS * 2 ** Math.max(0, failures - 1))
}

/** A throttle of the shop's own in place of the back end's (tests: none at all). */
export interface FailureThrottle {
  /** Records a failure and returns how long to wait before answering it. */
  failed(address: string): number
  succeeded(address: string): void
}

/**
 * Repeated wrong Basic credentials on the shop-side settings endpoints are slowed down per client
 * address: the n-th failure in a row waits FIRST_FAILURE_DELAY_MS * 2^(n-1), at most
 * MAX_FAILURE_DELAY_MS, before its 401 goes out. A success, or FAILURE_MEMORY_MS without
 * failures, forgets the address. Guessing the pair then costs hours, not seconds, while the
 * service's one registration attempt is not delayed at all.
 */
export const FIRST_FAILURE_DELAY_MS = 250
export const MAX_FAILURE_DELAY_MS = 8_000
export const FAILURE_MEMORY_MS = 15 * 60_000
/** Addresses remembered at most; the oldest is forgotten first, so memory stays bounded. */
export const MAX_TRACKED_ADDRESSES = 10_000

/** The wait before the n-th failure in a row is answered (n starts at 1). */
export function failureDelayMs(failures: number): number {
  return Math.min(MAX_FAILURE_DELAY_MS, FIRST_FAILURE_DELAY_MS * 2 ** Math.max(0, failures - 1))
}

export interface FailureThrottle {
  /** Records a failure and returns how long to wait before answering it. */
  failed(address: string): number
  succeeded(address: string): void
}

export function createFailureThrottle(now: () => number = Date.now): FailureThrottle {
  const seen = new Map<string, { failures: number; last: number }>()
  return {
    failed(address) {
      const entry = seen.get(address)
      const failures = entry && now() - entry.last < FAILURE_MEMORY_MS ? entry.failures + 1 : 1
      seen.delete(address) // re-inserted last: Map order is then oldest first
      seen.set(address, { failures, last: now() })
      if (seen.size > MAX_TRACKED_ADDRESSES) seen.delete(seen.keys().next().value!)
      return failureDelayMs(failures)
    },
    succeeded(address) {
      seen.delete(address)
    },
  }
}

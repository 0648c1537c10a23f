/**
 * Repeated wrong Basic credentials are slowed per client address: the n-th failure in a row waits
 * firstMs * 2^(n-1), at most maxMs, before its 401. A success, or memoryMs without failures,
 * forgets the address; at most maxAddresses are remembered (oldest forgotten first).
 */
export interface FailureThrottleOptions {
  /** The first failure's wait; default 250 ms. */
  readonly firstMs?: number
  /** The longest wait; default 8 s. */
  readonly maxMs?: number
  /** How long an address is remembered without failures; default 15 min. */
  readonly memoryMs?: number
  /** Addresses remembered at most; default 10,000. */
  readonly maxAddresses?: number
}

export interface FailureThrottle {
  /** Records a failure; the wait before answering it. */
  failed(address: string): number
  succeeded(address: string): void
}

export function createFailureThrottle(options: FailureThrottleOptions = {}, now: () => number = Date.now): FailureThrottle {
  const firstMs = options.firstMs ?? 250
  const maxMs = options.maxMs ?? 8_000
  const memoryMs = options.memoryMs ?? 15 * 60_000
  const maxAddresses = options.maxAddresses ?? 10_000
  const seen = new Map<string, { failures: number; last: number }>()
  return {
    failed(address) {
      const entry = seen.get(address)
      const failures = entry && now() - entry.last < memoryMs ? entry.failures + 1 : 1
      seen.delete(address) // re-inserted last: Map order is oldest first
      seen.set(address, { failures, last: now() })
      if (seen.size > maxAddresses) seen.delete(seen.keys().next().value!)
      return Math.min(maxMs, firstMs * 2 ** (failures - 1))
    },
    succeeded(address) {
      seen.delete(address)
    },
  }
}

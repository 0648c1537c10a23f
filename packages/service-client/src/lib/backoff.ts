/** Exponential backoff between retries. */
export interface Backoff {
  /** The wait before the first retry, at most (jitter takes up to half off). */
  readonly initialMs: number
  /** No wait is longer than this. */
  readonly maxMs: number
}

/**
 * The wait before retry `retry` (1 for the first): `initialMs` doubling up to `maxMs`, times 0.5 to 1
 * from `random`, so shops that failed together do not all come back at the same moment.
 */
export function backoffMs(retry: number, backoff: Backoff, random: () => number): number {
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * 2 ** (retry - 1))
  return Math.round(ceiling * (0.5 + Math.min(1, Math.max(0, random())) / 2))
}

/** When a failed delivery or problem is tried again: 5 s doubling, at most an hour. */
export function retryAt(now: Date, tries: number, firstMs = 5_000, maxMs = 3_600_000): string {
  return new Date(now.getTime() + Math.min(maxMs, firstMs * 2 ** Math.max(0, tries))).toISOString()
}

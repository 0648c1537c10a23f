/**
 * One operation at a time per key (an order) in this process: a double click's second request
 * waits for the first and then reads its stored answer. Across processes the store's unique
 * attempt number and compare-and-set do the same job.
 */
export function createKeyedLock() {
  const tails = new Map<string, Promise<unknown>>()
  return async function withLock<T>(key: string, run: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve()
    const current = previous.catch(() => {}).then(run)
    tails.set(key, current)
    try {
      return await current
    } finally {
      if (tails.get(key) === current) tails.delete(key)
    }
  }
}

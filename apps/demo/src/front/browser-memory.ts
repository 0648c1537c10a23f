/**
 * What the demo keeps in the browser's storage, or in this page's memory where the browser refuses
 * it (cookies blocked): reading it then throws, and the page must still load, pay and refund; the
 * shopper or admin only loses what a reload or the bank's redirect would have kept.
 */
export interface BrowserMemory {
  recall(key: string): string | null
  remember(key: string, value: string | null): void
}

function keptIn(storage: () => Storage): BrowserMemory {
  const page = new Map<string, string>()
  return {
    // The page's copy first: a browser may read its storage yet refuse a write (its quota full).
    recall(key) {
      const kept = page.get(key)
      if (kept !== undefined) return kept
      try {
        return storage().getItem(key)
      } catch {
        return null
      }
    },
    remember(key, value) {
      page.delete(key)
      try {
        if (value === null) storage().removeItem(key)
        else storage().setItem(key, value)
      } catch {
        if (value !== null) page.set(key, value)
      }
    },
  }
}

/** The tab's: the order and the language across the bank's redirect. */
export const tabMemory = keptIn(() => sessionStorage)

/** The browser's: seen by a reload and the other tabs (the admin's unanswered requests). */
export const sharedMemory = keptIn(() => localStorage)

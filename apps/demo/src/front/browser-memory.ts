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
    // Storage first (another tab's newer value), then the page's copy of a write it refused.
    recall(key) {
      try {
        const stored = storage().getItem(key)
        if (stored !== null) return stored
      } catch {}
      return page.get(key) ?? null
    },
    remember(key, value) {
      page.delete(key)
      try {
        if (value === null) storage().removeItem(key)
        else storage().setItem(key, value)
      } catch {
        if (value !== null) page.set(key, value)
        // A full quota refuses the write but not the removal: no older value may shadow the copy.
        try {
          storage().removeItem(key)
        } catch {}
      }
    },
  }
}

/** The tab's: the order and the language across the bank's redirect. */
export const tabMemory = keptIn(() => sessionStorage)

/** The browser's: seen by a reload and the other tabs (the admin's unanswered requests). */
export const sharedMemory = keptIn(() => localStorage)

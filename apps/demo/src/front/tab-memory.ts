/**
 * What the demo keeps in the tab across the bank's redirect (the order, the language), or nothing
 * where the browser refuses sessionStorage (cookies blocked): reading it then throws, and the page
 * must still load and pay; the shopper only loses these niceties.
 */
export function recall(key: string): string | null {
  try {
    return sessionStorage.getItem(key)
  } catch {
    return null
  }
}

export function remember(key: string, value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(key)
    else sessionStorage.setItem(key, value)
  } catch {}
}

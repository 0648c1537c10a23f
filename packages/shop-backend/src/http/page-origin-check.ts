// A page served from another origin than its return URL's: 3-D Secure frames post their result there.
import type { Log } from '../telemetry/log.js'

/** How many distinct page origins are warned about, so a crawler's many origins cannot fill memory. */
const MAX_ORIGINS_WARNED = 32

/**
 * Warns once per page origin when a payment's page (its request's `Origin`) is not at its return
 * URL's origin: the service's 3-D Secure frames post their result to that origin only, so the
 * page would wait at the challenge with no word (`localhost` against `127.0.0.1`).
 */
export function pageOriginCheck(log: Log): (pageOrigin: string | null, returnUrl: string) => void {
  const warned = new Set<string>()
  return (pageOrigin, returnUrl) => {
    // No Origin (a same-origin GET, a server's own call), or an opaque one ("null"): nothing to compare.
    if (pageOrigin === null || pageOrigin === 'null' || warned.has(pageOrigin) || warned.size >= MAX_ORIGINS_WARNED) return
    const returnOrigin = new URL(returnUrl).origin
    if (pageOrigin === returnOrigin) return
    warned.add(pageOrigin)
    log(
      // The code in the line too: a logger of one line (the README's `console.warn`) has no fields.
      `PAGE_ORIGIN_MISMATCH: a checkout page at ${pageOrigin} paid, but its return URL is at ${returnOrigin}: ` +
        `3-D Secure results are posted to ` +
        `${returnOrigin} only, so that page waits at a challenge for ever. Open the shop at ${returnOrigin}, or set shopUrl ` +
        '(or returnUrl) to where the page is served',
      'warn',
      { component: 'http', code: 'PAGE_ORIGIN_MISMATCH' },
    )
  }
}

// A card paid from another origin than its return URL's: 3-D Secure frames post their result there.
import { ShopBackendError } from '../errors.js'
import type { Log } from '../telemetry/log.js'

/** How many distinct page origins are logged, so a crawler's many origins cannot fill memory. */
const MAX_ORIGINS_LOGGED = 32

/**
 * Refuses a card payment whose page (its request's `Origin`) is not at its return URL's origin,
 * before anything is stored or sent: the service's 3-D Secure frames post their result to that
 * origin only, so the page would wait at a challenge with no word (`localhost` against
 * `127.0.0.1`). Other methods leave the page for the bank and come back to the return URL: they
 * go. Logged once per page origin. Rationale: docs/decisions.md, "A card paid from another origin".
 */
export function pageOriginCheck(log: Log): (pageOrigin: string | null, returnUrl: string, isCard: boolean) => void {
  const logged = new Set<string>()
  return (pageOrigin, returnUrl, isCard) => {
    // No Origin (a server's own call), or an opaque one ("null"): nothing to compare.
    if (pageOrigin === null || pageOrigin === 'null') return
    const returnOrigin = new URL(returnUrl).origin
    if (pageOrigin === returnOrigin) return
    const why =
      `a checkout page at ${pageOrigin} paid, but its return URL is at ${returnOrigin}: 3-D Secure results are posted to ` +
      `${returnOrigin} only, so its card payments are refused (nothing stored or sent). Open the shop at ${returnOrigin}, ` +
      'or set shopUrl (or returnUrl) to where the page is served'
    if (!logged.has(pageOrigin) && logged.size < MAX_ORIGINS_LOGGED) {
      logged.add(pageOrigin)
      // The code in the line too: a logger of one line (the README's `console.warn`) has no fields.
      log(`PAGE_ORIGIN_MISMATCH: ${why}`, 'warn', { component: 'http', code: 'PAGE_ORIGIN_MISMATCH' })
    }
    if (isCard) throw new ShopBackendError('PAGE_ORIGIN_MISMATCH', why)
  }
}

// A card paid from another origin than its return URL's: 3-D Secure frames post their result there.
import type { Log } from '../telemetry/log.js'

/** How many distinct page origins are logged, so a crawler's many origins cannot fill memory. */
const MAX_ORIGINS_LOGGED = 32

/**
 * A method the service may answer with a 3-D Secure frame: a card in any of its shapes, under any
 * type (a real service challenges `bcmc` too). Redirect methods leave the page and come back by navigation.
 */
export function mayOpenBankFrame(method: Readonly<Record<string, unknown>>): boolean {
  return method.type === 'scheme' || 'jwe' in method || 'storedPaymentMethodId' in method || Object.keys(method).some(isEncryptedField)
}

const isEncryptedField = (name: string) => name.startsWith('encrypted')

/** The origin of `url`, or undefined when it is not a URL (the payment request's own check refuses it). */
function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

// Why refused and not only logged: docs/decisions.md, "A card paid from another origin" (not JSDoc:
// typings name no repository file).
/**
 * Compares a payment's page (its request's `Origin`) with its return URL's origin, where the
 * service's 3-D Secure frames post their result: a page elsewhere (`localhost` against
 * `127.0.0.1`) would wait at a challenge with no word. Answers the mismatch in words, logged once
 * per page origin; the route refuses the payment when it may open a bank frame.
 */
export function pageOriginCheck(log: Log): (pageOrigin: string | null, returnUrl: string) => string | undefined {
  const logged = new Set<string>()
  return (pageOrigin, returnUrl) => {
    // No Origin (a server's own call), or "null" (also a page under Referrer-Policy: no-referrer): nothing to compare.
    const page = pageOrigin === null || pageOrigin === 'null' ? undefined : originOf(pageOrigin)
    const returnOrigin = originOf(returnUrl)
    if (page === undefined || returnOrigin === undefined || page === returnOrigin) return undefined
    const why =
      `a checkout page at ${page} paid, but its return URL is at ${returnOrigin}: 3-D Secure results are posted to ` +
      `${returnOrigin} only, so its card payments are refused (nothing stored or sent). Open the shop at ${returnOrigin}, ` +
      'or set shopUrl (or returnUrl) to where the page is served'
    if (!logged.has(page) && logged.size < MAX_ORIGINS_LOGGED) {
      logged.add(page)
      // The code in the line too: a logger of one line (the README's `console.warn`) has no fields.
      log(`PAGE_ORIGIN_MISMATCH: ${why}`, 'warn', { component: 'http', code: 'PAGE_ORIGIN_MISMATCH' })
    }
    return why
  }
}

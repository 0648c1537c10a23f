import type { CheckoutMessages } from '../messages.js'
import type { CheckoutResult } from '../types.js'

type Key = keyof CheckoutMessages

/**
 * The service's final resultCodes (Adyen's), the back end's error codes (shop-backend's
 * `ShopBackendErrorCode`) and `OFFLINE` to the words the shopper reads; a code not named here (a
 * body the page got wrong, a set-up route, an unknown resultCode) is `failed`. One table for both:
 * resultCodes are CamelCase, error codes UPPER_SNAKE, so none can be taken for another.
 */
export const WORDS_OF_CODE: Readonly<Record<string, Key>> = {
  Authorised: 'paid',
  Refused: 'refused',
  Cancelled: 'notFinished',
  Pending: 'pending',
  Received: 'pending',
  OFFLINE: 'offline',
  SERVICE_UNREACHABLE: 'unavailable',
  STORE_UNAVAILABLE: 'unavailable',
  NOT_REGISTERED: 'unavailable',
  // The shop's page is not where its 3-D Secure answers go: set-up, nothing the shopper can change.
  PAGE_ORIGIN_MISMATCH: 'unavailable',
  SERVICE_REFUSED: 'unavailable',
  // A 5xx without a code (a proxy's page, a crash): the payment may have gone, so never "no money was taken".
  INTERNAL: 'unavailable',
  OUTCOME_PENDING: 'pending',
  CARD_DATA_REFUSED: 'card',
  STORED_PAYMENT_METHOD_UNKNOWN: 'card',
  ORDER_NOT_FOUND: 'order',
  ORDER_MISMATCH: 'order',
  ORDER_CHANGED: 'order',
  ORDER_INCOMPLETE: 'order',
  NOT_AWAITING_DETAILS: 'ended',
  ORDER_NOT_PAYABLE: 'ended',
  // checkout-actions: the shopper left the challenge, or it timed out.
  ERR_ABORTED: 'notFinished',
  ERR_CHALLENGE_TIMEOUT: 'notFinished',
  // Back from the bank's page without its answer (the page restored from the bfcache).
  RETURNED_BACK: 'notFinished',
}

/** The result for a final resultCode or an error's code: its words say its kind too (`retry` for the rest). */
export function outcomeOf(code: string, words: CheckoutMessages): CheckoutResult {
  const key = WORDS_OF_CODE[code] ?? 'failed'
  const kind = key === 'paid' || key === 'refused' || key === 'pending' ? key : 'retry'
  return { kind, message: words[key], code }
}

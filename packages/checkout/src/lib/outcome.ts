import type { CheckoutMessages } from '../messages.js'
import type { CheckoutResult } from '../types.js'

type Key = keyof CheckoutMessages

/**
 * The back end's error codes (shop-backend's `ShopBackendErrorCode`) and `OFFLINE` to the words the
 * shopper reads; a code not named here (a body the page got wrong, a set-up route) is `failed`.
 */
export const WORDS_OF_CODE: Readonly<Record<string, Key>> = {
  OFFLINE: 'offline',
  SERVICE_UNREACHABLE: 'unavailable',
  STORE_UNAVAILABLE: 'unavailable',
  NOT_REGISTERED: 'unavailable',
  SERVICE_REFUSED: 'unavailable',
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

/** The service's final resultCodes (Adyen's) to a result's kind and words. */
const OF_RESULT: Readonly<Record<string, [CheckoutResult['kind'], Key]>> = {
  Authorised: ['paid', 'paid'],
  Refused: ['refused', 'refused'],
  Cancelled: ['retry', 'notFinished'],
  Pending: ['pending', 'pending'],
  Received: ['pending', 'pending'],
}

/** The result for a final resultCode, or for an error's code. */
export function outcomeOf(code: string, words: CheckoutMessages, isError: boolean): CheckoutResult {
  const [kind, key] = isError
    ? [code === 'OUTCOME_PENDING' ? 'pending' : 'retry', WORDS_OF_CODE[code] ?? 'failed']
    : (OF_RESULT[code] ?? ['retry', 'failed'])
  return { kind: kind as CheckoutResult['kind'], message: words[key], code }
}

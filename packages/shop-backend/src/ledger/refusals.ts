// The ledger's answers when the service refused, could not be reached, or the outcome is still open.
import { describeIssues } from '@card-jwe/payment-validator'
import { ShopBackendError } from '../errors.js'
import type { PaymentServiceError } from '../payment-service.js'

/**
 * A failed call whose outcome is open: no answer, or the service still runs an earlier call under
 * the same key (`IDEMPOTENCY_KEY_IN_USE`: another instance, another tab), which may yet move money.
 * Never read as a refusal.
 */
export const outcomeIsOpen = (error: PaymentServiceError): boolean => error.kind === 'unknown' || error.code === 'IDEMPOTENCY_KEY_IN_USE'

/**
 * The key already names another request that reached the service (`IDEMPOTENCY_KEY_REUSED`): that
 * one may have moved money, so the outcome is open; a new key after it could move money twice.
 */
export const keyUsedBefore = (error: PaymentServiceError): boolean => error.code === 'IDEMPOTENCY_KEY_REUSED'

export function unreachable(): ShopBackendError {
  return new ShopBackendError(
    'SERVICE_UNREACHABLE',
    'The payment service could not be reached. Try again in a moment; the order is never charged twice.',
  )
}

/** Why the service refused a method type: `/api/config`'s `paymentMethods` are those it takes. */
const UNSUPPORTED_TYPE = [{ path: 'paymentMethod.type', rule: "a method this shop takes: one of /api/config's paymentMethods" }]

/**
 * The back end's own words for the service's card refusals: the service's text could echo what the
 * shopper typed (a security code, an expiry), and it goes to the page and the logs.
 */
const CARD_REFUSAL_WORDS: Readonly<Record<string, string>> = {
  CARD_DATA_UNDECRYPTABLE: 'paymentMethod: the payment service could not decrypt the card data',
  CARD_DATA_NO_LONGER_VALID: 'paymentMethod: the card data is no longer valid; encrypt it when the shopper pays',
  CARD_DETAILS_INVALID: 'paymentMethod: the payment service found the card details invalid',
}

export function refusal(error: PaymentServiceError): ShopBackendError {
  if (error.code.startsWith('CARD_'))
    return new ShopBackendError(
      'CARD_DATA_REFUSED',
      CARD_REFUSAL_WORDS[error.code] ?? `paymentMethod: the payment service refused the card data (${error.code})`,
      { serviceCode: error.code },
    )
  // The page's choice, not the service failing: said as a field and its rule, as a body the page got wrong.
  if (error.code === 'UNSUPPORTED_PAYMENT_METHOD')
    return new ShopBackendError('PAYMENT_METHOD_UNSUPPORTED', describeIssues(UNSUPPORTED_TYPE), UNSUPPORTED_TYPE)
  return new ShopBackendError('SERVICE_REFUSED', `the payment service refused the request (${error.code})`, {
    serviceCode: error.code,
  })
}

export function outcomePending(): ShopBackendError {
  return new ShopBackendError(
    'OUTCOME_PENDING',
    'The payment is being confirmed. Reload this page in a moment; the order is never charged twice.',
  )
}

/** The service answered 2xx (its body unreadable): it took the request, so the outcome is being confirmed, not unreached. */
const tookTheRequest = (error: PaymentServiceError) => error.status !== undefined && error.status >= 200 && error.status < 300

/** What the page hears of an open outcome: no answer (unreachable), or one it took or still runs (being confirmed). */
export const openOutcome = (error: PaymentServiceError): ShopBackendError =>
  error.kind === 'unknown' && !tookTheRequest(error) ? unreachable() : outcomePending()

/** Why an outcome is open, in the merchant's log's words. */
export function whyOpen(error: PaymentServiceError): string {
  if (error.kind !== 'unknown') return 'an earlier call still running'
  return tookTheRequest(error) ? 'an answer that could not be read' : 'no answer'
}

// The ledger's answers when the service refused, could not be reached, or the outcome is still open.
import { ShopBackendError } from '../errors.js'
import type { PaymentServiceError } from '../payment-service.js'

export function unreachable(): ShopBackendError {
  return new ShopBackendError(
    503,
    'SERVICE_UNREACHABLE',
    'The payment service could not be reached. Try again in a moment; the order is never charged twice.',
  )
}

export function refusal(error: PaymentServiceError): ShopBackendError {
  if (error.serviceCode.startsWith('CARD_'))
    return new ShopBackendError(422, 'CARD_DATA_REFUSED', error.message, { serviceCode: error.serviceCode })
  return new ShopBackendError(502, 'SERVICE_REFUSED', `the payment service refused the request (${error.serviceCode})`, {
    serviceCode: error.serviceCode,
  })
}

export function outcomePending(): ShopBackendError {
  return new ShopBackendError(
    503,
    'OUTCOME_PENDING',
    'The payment is being confirmed. Reload this page in a moment; the order is never charged twice.',
  )
}

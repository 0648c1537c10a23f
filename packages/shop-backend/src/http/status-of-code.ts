import type { ShopBackendErrorCode } from '../errors.js'

/** The one table from a refusal's code to the HTTP status the back end answers it with. */
const HTTP_STATUS_OF: Readonly<Record<ShopBackendErrorCode, number>> = {
  INVALID_BODY: 400,
  INVALID_INPUT: 400,
  UNKNOWN_SETTING: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  STORE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  MODIFICATION_NOT_ALLOWED: 409,
  MODIFICATION_REFUSED: 409,
  NOT_AWAITING_DETAILS: 409,
  ORDER_CHANGED: 409,
  ORDER_NOT_PAYABLE: 409,
  REQUEST_ID_REUSED: 409,
  SETUP_REFUSED: 409,
  SETUP_STEP_MISSING: 409,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  AMOUNT_NOT_ALLOWED: 422,
  CARD_DATA_REFUSED: 422,
  ORDER_MISMATCH: 422,
  ORDER_INCOMPLETE: 422,
  PAYMENT_METHOD_UNSUPPORTED: 422,
  STORED_PAYMENT_METHOD_UNKNOWN: 422,
  INTERNAL: 500,
  SERVICE_REFUSED: 502,
  NOT_REGISTERED: 503,
  OUTCOME_PENDING: 503,
  SERVICE_UNREACHABLE: 503,
  STORE_UNAVAILABLE: 503,
}

/** The HTTP status for a {@link ShopBackendError}'s code, for a shop that answers one in its own route. */
export function httpStatusOf(code: ShopBackendErrorCode): number {
  return HTTP_STATUS_OF[code]
}

import type { SandboxError, SandboxErrorCode } from '../errors.js'

/** The envelope's `errorType`: whose to fix (the request, its signature, the set-up, the sandbox). */
type ErrorType = 'validation' | 'security' | 'configuration' | 'internal'

/** The one table from a refusal's code to its HTTP status and the envelope's `errorType`. */
const REFUSAL_OF_CODE: Readonly<Record<SandboxErrorCode, { readonly status: number; readonly errorType: ErrorType }>> = {
  INVALID_JSON: { status: 400, errorType: 'validation' },
  UNKNOWN_TRANSACTION: { status: 400, errorType: 'validation' },
  INVALID_CREQ: { status: 400, errorType: 'validation' },
  SIGNATURE_MISSING: { status: 401, errorType: 'security' },
  SIGNATURE_MALFORMED: { status: 401, errorType: 'security' },
  SIGNATURE_STALE: { status: 401, errorType: 'security' },
  SIGNATURE_INVALID: { status: 401, errorType: 'security' },
  SIGNATURE_REPLAYED: { status: 401, errorType: 'security' },
  NOT_FOUND: { status: 404, errorType: 'validation' },
  METHOD_NOT_ALLOWED: { status: 405, errorType: 'validation' },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, errorType: 'validation' },
  BODY_TOO_LARGE: { status: 413, errorType: 'validation' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, errorType: 'validation' },
  INVALID_REQUEST: { status: 422, errorType: 'validation' },
  IDEMPOTENCY_KEY_INVALID: { status: 422, errorType: 'validation' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, errorType: 'validation' },
  VERIFICATION_NOT_REQUESTED: { status: 422, errorType: 'validation' },
  VERIFICATION_CODE_USED: { status: 422, errorType: 'validation' },
  VERIFICATION_ATTEMPTS_EXCEEDED: { status: 422, errorType: 'validation' },
  VERIFICATION_CODE_EXPIRED: { status: 422, errorType: 'validation' },
  VERIFICATION_CODE_WRONG: { status: 422, errorType: 'validation' },
  ONBOARDING_ALREADY_COMPLETE: { status: 422, errorType: 'validation' },
  COUNTRY_NOT_LISTED: { status: 422, errorType: 'validation' },
  INDUSTRY_CODE_NOT_LISTED: { status: 422, errorType: 'validation' },
  SHOPPER_STATEMENT_IMMUTABLE: { status: 422, errorType: 'validation' },
  CURRENCY_NOT_SUPPORTED: { status: 422, errorType: 'validation' },
  AMOUNT_ZERO_NOT_ALLOWED: { status: 422, errorType: 'validation' },
  PAYMENT_METHOD_NOT_ENABLED: { status: 422, errorType: 'validation' },
  UNSUPPORTED_PAYMENT_METHOD: { status: 422, errorType: 'validation' },
  CARD_DATA_UNDECRYPTABLE: { status: 422, errorType: 'validation' },
  CARD_DATA_NO_LONGER_VALID: { status: 422, errorType: 'validation' },
  CARD_DETAILS_INVALID: { status: 422, errorType: 'validation' },
  STORED_PAYMENT_METHOD_UNKNOWN: { status: 422, errorType: 'validation' },
  SECURITY_CODE_REQUIRED: { status: 422, errorType: 'validation' },
  DETAILS_UNKNOWN: { status: 422, errorType: 'validation' },
  CHALLENGE_NOT_COMPLETED: { status: 422, errorType: 'validation' },
  REDIRECT_NOT_COMPLETED: { status: 422, errorType: 'validation' },
  PAYMENT_ALREADY_FINAL: { status: 422, errorType: 'validation' },
  CURSOR_UNKNOWN: { status: 422, errorType: 'validation' },
  CURRENCY_MISMATCH: { status: 422, errorType: 'validation' },
  AMOUNT_TOO_SMALL: { status: 422, errorType: 'validation' },
  CAPTURE_NOT_ALLOWED: { status: 422, errorType: 'validation' },
  CAPTURE_EXCEEDS_AUTHORISED: { status: 422, errorType: 'validation' },
  REFUND_NOT_ALLOWED: { status: 422, errorType: 'validation' },
  REFUND_EXCEEDS_CAPTURED: { status: 422, errorType: 'validation' },
  CANCEL_NOT_ALLOWED: { status: 422, errorType: 'validation' },
  SHOP_REJECTED_CREDENTIALS: { status: 422, errorType: 'configuration' },
  BACKOFFICE_USER_REQUIRED: { status: 422, errorType: 'configuration' },
  CONTRACTOR_NOT_CONNECTED: { status: 422, errorType: 'configuration' },
  STORE_NOT_ONBOARDED: { status: 422, errorType: 'configuration' },
  VERIFICATION_RATE_LIMITED: { status: 429, errorType: 'validation' },
  INTERNAL: { status: 500, errorType: 'internal' },
  SHOP_UNREACHABLE: { status: 502, errorType: 'configuration' },
  SHOP_SETTINGS_INVALID: { status: 502, errorType: 'configuration' },
}

/** A refusal's envelope, `{status, errorCode, message, errorType}`: the service's wire format, status included. */
export function envelopeOf(error: SandboxError) {
  const { status, errorType } = REFUSAL_OF_CODE[error.code]
  return { status, errorCode: error.code, message: error.message, errorType }
}

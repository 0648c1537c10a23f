/**
 * Every refusal of the sandbox, by a stable code: sent as the envelope's `errorCode`. Its HTTP
 * status and `errorType` come from one table at the edge (`http/refusal-of-code.ts`).
 */
export type SandboxErrorCode =
  // The request as such: path, method, body, signature.
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'BODY_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INVALID_JSON'
  | 'INVALID_REQUEST'
  | 'SIGNATURE_MISSING'
  | 'SIGNATURE_MALFORMED'
  | 'SIGNATURE_STALE'
  | 'SIGNATURE_INVALID'
  | 'SIGNATURE_REPLAYED'
  | 'IDEMPOTENCY_KEY_INVALID'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'IDEMPOTENCY_KEY_IN_USE'
  // Registration and merchant set-up.
  | 'SHOP_UNREACHABLE'
  | 'SHOP_REJECTED_CREDENTIALS'
  | 'SHOP_SETTINGS_INVALID'
  | 'VERIFICATION_RATE_LIMITED'
  | 'VERIFICATION_NOT_REQUESTED'
  | 'VERIFICATION_CODE_USED'
  | 'VERIFICATION_ATTEMPTS_EXCEEDED'
  | 'VERIFICATION_CODE_EXPIRED'
  | 'VERIFICATION_CODE_WRONG'
  | 'BACKOFFICE_USER_REQUIRED'
  | 'CONTRACTOR_NOT_CONNECTED'
  | 'ONBOARDING_ALREADY_COMPLETE'
  | 'COUNTRY_NOT_LISTED'
  | 'INDUSTRY_CODE_NOT_LISTED'
  | 'SHOPPER_STATEMENT_IMMUTABLE'
  // Payments and their details.
  | 'STORE_NOT_ONBOARDED'
  | 'CURRENCY_NOT_SUPPORTED'
  | 'AMOUNT_ZERO_NOT_ALLOWED'
  | 'PAYMENT_METHOD_NOT_ENABLED'
  | 'UNSUPPORTED_PAYMENT_METHOD'
  | 'CARD_DATA_UNDECRYPTABLE'
  | 'CARD_DATA_NO_LONGER_VALID'
  | 'CARD_DETAILS_INVALID'
  | 'STORED_PAYMENT_METHOD_UNKNOWN'
  | 'SECURITY_CODE_REQUIRED'
  | 'DETAILS_UNKNOWN'
  | 'CHALLENGE_NOT_COMPLETED'
  | 'REDIRECT_NOT_COMPLETED'
  | 'PAYMENT_ALREADY_FINAL'
  | 'CURSOR_UNKNOWN'
  // Modifications.
  | 'CURRENCY_MISMATCH'
  | 'AMOUNT_TOO_SMALL'
  | 'CAPTURE_NOT_ALLOWED'
  | 'CAPTURE_EXCEEDS_AUTHORISED'
  | 'REFUND_NOT_ALLOWED'
  | 'REFUND_EXCEEDS_CAPTURED'
  | 'CANCEL_NOT_ALLOWED'
  // The shopper's pages.
  | 'UNKNOWN_TRANSACTION'
  | 'INVALID_CREQ'
  // Anything not foreseen; never thrown by a handler.
  | 'INTERNAL'

/**
 * Every refusal the sandbox gives, by its code; the HTTP edge answers it with the envelope of the
 * widely used checkout APIs. Messages name fields and rules; card values never appear.
 */
export class SandboxError extends Error {
  /** Sent as `Retry-After` (a 429's "not before"), so a client does not retry into the same refusal. */
  readonly retryAfterSeconds: number | undefined

  constructor(
    /** What was refused, stable across versions. */
    readonly code: SandboxErrorCode,
    message: string,
    options: { readonly retryAfterSeconds?: number } = {},
  ) {
    super(message)
    this.retryAfterSeconds = options.retryAfterSeconds
  }
}

export const notFound = (what: string) => new SandboxError('NOT_FOUND', `${what} not found`)

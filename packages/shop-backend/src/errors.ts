/**
 * Every refusal of the back end, by a stable code. Messages name the field and the rule, never a
 * value the shopper typed or the service's secret.
 */
export type ShopBackendErrorCode =
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'BODY_TOO_LARGE'
  | 'INVALID_BODY'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'UNKNOWN_SETTING'
  | 'ORDER_NOT_FOUND'
  | 'ORDER_MISMATCH'
  | 'ORDER_INCOMPLETE'
  | 'PAGE_ORIGIN_MISMATCH'
  | 'STORED_PAYMENT_METHOD_UNKNOWN'
  | 'ORDER_NOT_PAYABLE'
  | 'ORDER_CHANGED'
  | 'NOT_AWAITING_DETAILS'
  | 'NOT_REGISTERED'
  | 'CARD_DATA_REFUSED'
  | 'PAYMENT_METHOD_UNSUPPORTED'
  | 'SERVICE_REFUSED'
  | 'SETUP_REFUSED'
  | 'SERVICE_UNREACHABLE'
  | 'OUTCOME_PENDING'
  | 'STORE_UNAVAILABLE'
  | 'MODIFICATION_NOT_ALLOWED'
  | 'MODIFICATION_REFUSED'
  | 'MODIFICATION_DISMISSED'
  | 'AMOUNT_NOT_ALLOWED'
  | 'REQUEST_ID_REUSED'
  | 'INVALID_INPUT'
  | 'SETUP_STEP_MISSING'
  | 'STORE_NOT_FOUND'
  | 'LEDGER_OF_ANOTHER_SHOP'
  | 'INTERNAL'

const BRAND = Symbol.for('@card-jwe/shop-backend.ShopBackendError')

/**
 * A refusal by its stable code; the HTTP edge gives it a status (`httpStatusOf`). `details` carries
 * field paths and rules (or the service's error code).
 */
export class ShopBackendError extends Error {
  /** Always "ShopBackendError", also after bundling renames the class. */
  override readonly name = 'ShopBackendError'
  /** `instanceof` holds across two copies of this package (one bundle creates the back end, another catches). */
  readonly [BRAND] = true
  /** True for an instance made by any copy of this package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && BRAND in value
  }
  constructor(
    /** What went wrong, stable across versions. */
    readonly code: ShopBackendErrorCode,
    message: string,
    /** Field paths and rules of a refused body, `{ serviceCode }` for the service's refusal, or a `LedgerOfShop`. */
    readonly details?: unknown,
  ) {
    super(message)
  }
}

/** "Not now": nothing was decided, the same call may be made again in a moment (HTTP 503). */
const NOT_NOW: ReadonlySet<ShopBackendErrorCode> = new Set([
  'NOT_REGISTERED',
  'SERVICE_UNREACHABLE',
  'OUTCOME_PENDING',
  'STORE_UNAVAILABLE',
])

export function isNotNow(error: unknown): boolean {
  return error instanceof ShopBackendError && NOT_NOW.has(error.code)
}

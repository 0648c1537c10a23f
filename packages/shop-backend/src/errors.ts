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
  | 'UNKNOWN_SETTING'
  | 'ORDER_NOT_FOUND'
  | 'ORDER_MISMATCH'
  | 'ORDER_NOT_PAYABLE'
  | 'ORDER_CHANGED'
  | 'NOT_AWAITING_DETAILS'
  | 'NOT_REGISTERED'
  | 'CARD_DATA_REFUSED'
  | 'SERVICE_REFUSED'
  | 'SERVICE_UNREACHABLE'
  | 'OUTCOME_PENDING'
  | 'STORE_UNAVAILABLE'
  | 'MODIFICATION_NOT_ALLOWED'
  | 'REQUEST_ID_REUSED'
  | 'INVALID_INPUT'
  | 'SETUP_STEP_MISSING'
  | 'STORE_NOT_FOUND'
  | 'INTERNAL'

/** A refusal with its HTTP status; `details` carries field paths and rules (or the service's error code). */
export class ShopBackendError extends Error {
  /** Always "ShopBackendError", also after bundling renames the class. */
  override readonly name = 'ShopBackendError'
  constructor(
    /** The HTTP status the handler answers with. */
    readonly status: number,
    /** What went wrong, stable across versions. */
    readonly code: ShopBackendErrorCode,
    message: string,
    /** Field paths and rules of a refused body, or `{ serviceCode }` for the service's refusal. */
    readonly details?: unknown,
  ) {
    super(message)
  }
}

/** Stable codes of what payment-validator refuses. */
export type ValidationErrorCode =
  /** A currency code that is not in use (or not in the overrides). */
  | 'ERR_UNKNOWN_CURRENCY'
  /** An amount that is not a plain decimal, has more decimals than the currency, or exceeds 2^53 - 1 minor units. */
  | 'ERR_AMOUNT_FORMAT'
  /** A body that failed its schema; `issues` name each field and rule. */
  | 'ERR_INVALID_BODY'
  /** A body larger than allowed. */
  | 'ERR_BODY_TOO_LARGE'

/** One broken rule at one place in a body: a path like "amount.value" and a rule like "integer". Never a value. */
export interface ValidationIssue {
  readonly path: string
  readonly rule: string
}

export class ValidationError extends Error {
  override readonly name = 'ValidationError'
  readonly code: ValidationErrorCode
  readonly issues: readonly ValidationIssue[]

  constructor(code: ValidationErrorCode, message: string, issues: readonly ValidationIssue[] = []) {
    super(message)
    this.code = code
    this.issues = issues
  }
}

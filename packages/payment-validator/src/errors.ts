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
  /** Where in the body: "amount.value", "lineItems[2].quantity", "(body)" for the whole. */
  readonly path: string
  /** The rule broken: a zod issue code ("too_small"), "format:email", "unknown_key", "json", or a rule in words. */
  readonly rule: string
}

/** What payment-validator throws or returns for a refused body: a stable `code` and every issue. */
export class ValidationError extends Error {
  /** Always "ValidationError", also after bundling renames the class. */
  override readonly name = 'ValidationError'
  /** Stable across versions: branch on this, not on the message. */
  readonly code: ValidationErrorCode
  /** Every field and rule that failed; empty for the codes that concern no field. */
  readonly issues: readonly ValidationIssue[]

  constructor(code: ValidationErrorCode, message: string, issues: readonly ValidationIssue[] = []) {
    super(message)
    this.code = code
    this.issues = issues
  }
}

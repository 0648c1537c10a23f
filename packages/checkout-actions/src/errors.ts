/** Stable codes of what checkout-actions refuses or gives up on. Messages name fields, never values. */
export type CheckoutActionErrorCode =
  /** The action, or a field of its token, is missing or malformed; nothing was shown to the shopper. */
  | 'ERR_ACTION_INVALID'
  /** An action type or subtype this package does not handle. */
  | 'ERR_ACTION_UNSUPPORTED'
  /** The shopper did not finish the challenge in time; the frame is removed. */
  | 'ERR_CHALLENGE_TIMEOUT'
  /** The shop's `AbortSignal` fired; the frame is removed. */
  | 'ERR_ABORTED'

/** What checkout-actions throws: a stable `code` and a message naming the field and the rule. */
export class CheckoutActionError extends Error {
  /** Always "CheckoutActionError", also after bundling renames the class. */
  override readonly name = 'CheckoutActionError'
  /** Stable across versions: branch on this, not on the message. */
  readonly code: CheckoutActionErrorCode

  constructor(code: CheckoutActionErrorCode, message: string) {
    super(message)
    this.code = code
  }
}

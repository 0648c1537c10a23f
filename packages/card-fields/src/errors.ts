/** Stable codes of what card-fields refuses; only ever a mistake in the call, never shopper input. */
export type CardFieldsErrorCode =
  /** An option is missing or of the wrong kind (no number field, an input of `type="number"`...). */
  'ERR_INVALID_ARGUMENT'

/** What card-fields throws: a stable `code` and a message naming the option. Shopper input never throws. */
export class CardFieldsError extends Error {
  /** Always "CardFieldsError", also after bundling renames the class. */
  override readonly name = 'CardFieldsError'
  /** Stable across versions: branch on this, not on the message. */
  readonly code: CardFieldsErrorCode

  constructor(code: CardFieldsErrorCode, message: string) {
    super(message)
    this.code = code
  }
}

/**
 * Why a captured card request fails the checks of `@card-jwe/testkit/capture`. Stable: branch on
 * these, not on messages.
 */
export type CardCaptureErrorCode =
  /** A request to the card URL carried no compact JWE (five base64url segments, JSON header). */
  | 'NOT_A_JWE'
  /** The JWE uses RSA-OAEP or A128CBC-HS256: the service still opens them, new pages must not send them. */
  | 'LEGACY_ALGORITHM'
  /** The reference decryptor could not open the JWE (wrong certificate, broken token). */
  | 'UNDECRYPTABLE'
  /** The payload breaks the service's card formats. */
  | 'INVALID_CARD_DETAILS'
  /** `generationtime` older than the service accepts, or made before this capture began (a reused JWE). */
  | 'STALE_GENERATION_TIME'
  /** `generationtime` ahead of the clock by more than the service's skew. */
  | 'FUTURE_GENERATION_TIME'
  /** The encrypted card is not the card the test typed. */
  | 'CARD_MISMATCH'
  /** A request of the page carried card digits outside a JWE. */
  | 'CARD_DIGITS_IN_CLEAR'
  /** No request to the card URL came within the time allowed. */
  | 'NO_CARD_REQUEST'

/**
 * A failed check of a captured card request. The message names the request (method and path), the
 * field and the rule, never a card number, code or expiry: it ends up in test reports and CI logs.
 */
export class CardCaptureError extends Error {
  /** Always "CardCaptureError", also after bundling renames the class. */
  override readonly name = 'CardCaptureError'
  /** Stable: branch on this, not on the message. */
  readonly code: CardCaptureErrorCode

  constructor(code: CardCaptureErrorCode, message: string) {
    super(message)
    this.code = code
  }
}

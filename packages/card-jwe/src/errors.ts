/**
 * One error class for everything card-jwe refuses. `code` is the stable part to branch on;
 * `message` is for people. Neither ever carries card data: messages name fields and rules only.
 */

/** The stable error codes. New codes may be added in minor versions; existing ones never change meaning. */
export type CardJweErrorCode =
  /** The card failed normalisation; `issues` lists each field and the rule it broke. */
  | 'ERR_CARD_INVALID'
  /** The certificate is not a parseable X.509 certificate (PEM, DER or bare base64). */
  | 'ERR_CERTIFICATE_MALFORMED'
  /** The certificate's public key is not an RSA key (rsaEncryption). */
  | 'ERR_CERTIFICATE_KEY_TYPE'
  /** The certificate's RSA key is shorter than 2048 bits. */
  | 'ERR_CERTIFICATE_KEY_SIZE'
  /** The certificate's notBefore lies in the future. */
  | 'ERR_CERTIFICATE_NOT_YET_VALID'
  /** The certificate's notAfter lies in the past. */
  | 'ERR_CERTIFICATE_EXPIRED'
  /** The certificate's SHA-256 fingerprint differs from the pinned one (live/test mix-up). */
  | 'ERR_CERTIFICATE_FINGERPRINT'
  /** `crypto.subtle` is missing: the page is not a secure context (HTTPS or localhost). */
  | 'ERR_WEBCRYPTO_UNAVAILABLE'
  /** The JWE engine failed; `cause` holds its error. */
  | 'ERR_ENCRYPTION_FAILED'
  /** A programming error in the call itself (wrong option type, bad pin format, invalid clock). */
  | 'ERR_INVALID_ARGUMENT'

/** Card fields as the payload names them; `expiry` is the date as a whole (typed as one field, or expired). */
export type CardField = 'number' | 'expiry' | 'expiryMonth' | 'expiryYear' | 'securityCode' | 'holderName'

/** Why a field is not valid. Verdicts and normalisation use the same names. */
export type FieldRule =
  /** Empty, but needed. */
  | 'required'
  /** Holds characters the field never takes (letters in a number, digits in a name). */
  | 'characters'
  /** Not the shape the field takes (for example a three-digit year). */
  | 'format'
  /** Number prefix of no supported brand. */
  | 'brand'
  /** Too short or too long for the brand (or, for a security code, for the brand's code size). */
  | 'length'
  /** Fails the Luhn (mod 10) check. */
  | 'luhn'
  /** Month outside 01-12. */
  | 'month'
  /** The expiry month has passed. */
  | 'expired'
  /** The expiry date is further ahead than any card is issued for. */
  | 'too-far-ahead'

/** One broken rule of one field. Never holds the field's value. */
export interface CardIssue {
  /** The card field the rule is about. */
  readonly field: CardField
  /** The rule the field's value breaks. */
  readonly rule: FieldRule
}

/** Every error card-jwe throws: a stable `code` to branch on, a message naming fields and rules, never a card value. */
export class CardJweError extends Error {
  /** Always "CardJweError", also after bundling renames the class. */
  override readonly name = 'CardJweError'
  /** Stable across versions: branch on this, not on the message. */
  readonly code: CardJweErrorCode
  /** Present with `ERR_CARD_INVALID`: every field and rule that failed. */
  readonly issues: readonly CardIssue[]

  constructor(code: CardJweErrorCode, message: string, options: { cause?: unknown; issues?: readonly CardIssue[] } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.issues = options.issues ?? []
  }
}

/**
 * The three messages the service answers for card data (spec: "Errors"), word for word. The
 * decryptor gives exactly these and nothing else, so a shop's tests see what production would say.
 */
export const SERVICE_MESSAGES = Object.freeze({
  /** Anything that cannot be opened: format, header, key, tag. */
  UNDECRYPTABLE: 'Unable to decrypt the provided data',
  /** `generationtime` older than the limit, or too far ahead. */
  NO_LONGER_VALID: 'Encrypted data is no longer valid',
  /** The payload breaks the spec's formats. */
  INVALID_CARD_DETAILS: 'Invalid card details',
} as const)

/** Which of the service's three answers a {@link DecryptionError} carries. */
export type DecryptionErrorCode = keyof typeof SERVICE_MESSAGES

/** What the decryptor throws: `message` is one of {@link SERVICE_MESSAGES}, as the service answers. */
export class DecryptionError extends Error {
  /** Always "DecryptionError", also after bundling renames the class. */
  override readonly name = 'DecryptionError'
  /** Stable: branch on this, not on the message. */
  readonly code: DecryptionErrorCode
  /**
   * Why, for the developer reading a test failure: a field or step and a rule, never a value.
   * The service itself says only `message`; do not show `detail` to shoppers.
   */
  readonly detail: string

  constructor(code: DecryptionErrorCode, detail: string) {
    super(SERVICE_MESSAGES[code])
    this.code = code
    this.detail = detail
  }
}

/** Every failure before a plaintext exists looks the same from outside (RFC 7516 section 11.5). */
export function undecryptable(detail: string): DecryptionError {
  return new DecryptionError('UNDECRYPTABLE', detail)
}

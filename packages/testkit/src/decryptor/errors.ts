/**
 * The three messages the service answers for card data (spec: "Errors"), word for word. The
 * decryptor gives exactly these and nothing else, so a shop's tests see what production would say.
 */
export const SERVICE_MESSAGES = Object.freeze({
  UNDECRYPTABLE: 'Unable to decrypt the provided data',
  NO_LONGER_VALID: 'Encrypted data is no longer valid',
  INVALID_CARD_DETAILS: 'Invalid card details',
} as const)

export type DecryptionErrorCode = keyof typeof SERVICE_MESSAGES

export class DecryptionError extends Error {
  override readonly name = 'DecryptionError'
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

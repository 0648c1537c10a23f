/** The spec's `paymentMethod` for raw card fields with JWE (Front-end contract, rule 7). */
export interface CardPaymentMethod {
  /** Card payments are of type "scheme" (spec: Front-end contract). */
  readonly type: 'scheme'
  /** The compact JWE from {@link encryptCard}. */
  readonly jwe: string
}

/** Wraps a card JWE as the `paymentMethod` object the shop backend forwards. */
export function toPaymentMethod(jwe: string): CardPaymentMethod {
  return { type: 'scheme', jwe }
}

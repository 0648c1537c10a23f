/** The spec's `paymentMethod` for raw card fields with JWE (Front-end contract, rule 7). */
export interface CardPaymentMethod {
  readonly type: 'scheme'
  readonly jwe: string
}

/** Wraps a card JWE as the `paymentMethod` object the shop backend forwards. */
export function toPaymentMethod(jwe: string): CardPaymentMethod {
  return { type: 'scheme', jwe }
}

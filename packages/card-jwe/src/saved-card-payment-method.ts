/**
 * The `paymentMethod` of a payment with a saved card: the card by its id from
 * `storedPaymentMethods`, and with the shopper present the JWE of its security code.
 */
export interface SavedCardPaymentMethod {
  /** Card payments are of type "scheme". */
  readonly type: 'scheme'
  /** The saved card's `id` from the service's `storedPaymentMethods`. */
  readonly storedPaymentMethodId: string
  /** The code-only JWE from {@link encryptSecurityCode}; absent for a brand without a code. */
  readonly jwe?: string
}

/** Wraps a saved card's id, and the JWE of its code when there is one, as the `paymentMethod` the page sends. */
export function toSavedCardPaymentMethod(storedPaymentMethodId: string, jwe?: string): SavedCardPaymentMethod {
  return jwe === undefined ? { type: 'scheme', storedPaymentMethodId } : { type: 'scheme', storedPaymentMethodId, jwe }
}

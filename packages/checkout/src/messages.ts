/** Every text the flow says, in one language (card-fields' own words are apart). */
export interface CheckoutMessages {
  /** Said while the payment is out. */
  readonly processing: string
  /** Pay with fields in error. */
  readonly fix: string
  /** The bank's challenge is shown. */
  readonly challenge: string
  /** Leaving for the bank (a redirect method). */
  readonly redirecting: string
  /** Authorised. */
  readonly paid: string
  /** Refused by the bank. */
  readonly refused: string
  /** Cancelled, a challenge left or timed out, or Back from the bank: nothing paid. */
  readonly notFinished: string
  /** The outcome comes later (Pending, Received, OUTCOME_PENDING). */
  readonly pending: string
  /** The service or the shop's records cannot be reached now. */
  readonly unavailable: string
  /** The shop itself cannot be reached (network). */
  readonly offline: string
  /** The card's data was refused (CARD_DATA_REFUSED, a saved card unknown). */
  readonly card: string
  /** The order changed or is gone. */
  readonly order: string
  /** The payment already ended (NOT_AWAITING_DETAILS, ORDER_NOT_PAYABLE). */
  readonly ended: string
  /** Anything else: nothing was paid. */
  readonly failed: string
}

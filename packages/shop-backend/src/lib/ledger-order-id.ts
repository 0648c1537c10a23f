// What an order id in the ledger may be. The checkout takes a narrower one (payment-validator's
// OrderIdSchema), but findOrder's own ids and a shop's direct calls (chargeSavedCard) reach it too.

/** The rule in words, for a refusal. */
export const LEDGER_ORDER_ID_RULE = '1 to 256 characters, no control character'

/** 1 to 256 characters, none of them a control character (Unicode Cc): PostgreSQL refuses a NUL in text (22021). */
export const isLedgerOrderId = (id: string): boolean => id.length >= 1 && id.length <= 256 && !/\p{Cc}/u.test(id)

/** A shop's own call with an id no ledger holds is misuse: a TypeError naming the rule, never the id. */
export function ledgerOrderId(id: string | number): string {
  const text = String(id)
  if (!isLedgerOrderId(text)) throw new TypeError(`orderId: ${LEDGER_ORDER_ID_RULE}`)
  return text
}

import type * as z from 'zod'

/** Field names only raw card data uses: never accepted in a request, card method or not. */
export const RAW_CARD_FIELD_NAMES = Object.freeze([
  'number',
  'cardNumber',
  'expiryMonth',
  'expiryYear',
  'expiryDate',
  'cvc',
  'cvv',
  'securityCode',
])

/** Names each raw card field `value` holds, by name only: its value never reaches an issue. */
export function refuseRawCardFields(value: Record<string, unknown>, context: z.RefinementCtx): void {
  for (const name of RAW_CARD_FIELD_NAMES) {
    if (Object.hasOwn(value, name)) context.addIssue({ code: 'custom', path: [name], message: 'raw card data is never accepted' })
  }
}

import type * as z from 'zod'

/** Field names only raw card data uses: never accepted in a request, card method or not (any letter case). */
export const RAW_CARD_FIELD_NAMES = Object.freeze([
  'number',
  'cardNumber',
  'pan',
  'expiryMonth',
  'expiryYear',
  'expiryDate',
  'cvc',
  'cvc2',
  'cvv',
  'cvv2',
  'securityCode',
])

const RAW_NAMES: ReadonlySet<string> = new Set(RAW_CARD_FIELD_NAMES.map((name) => name.toLowerCase()))
/** Deeper than any payment method nests its data: deeper is refused, as the walk would not look there. */
const MAX_DEPTH = 8

/** A name only raw card data uses, in any letter case. */
export const isRawCardName = (name: string): boolean => RAW_NAMES.has(name.toLowerCase())
/** The rule a raw card field is refused by, wherever it is. */
export const RAW_CARD_RULE = 'raw card data is never accepted'

/** Names each raw card field `value` holds at its top level, by name only: its value never reaches an issue. */
export function refuseRawCardFields(value: Record<string, unknown>, context: z.RefinementCtx): void {
  for (const name of Object.keys(value)) if (isRawCardName(name)) context.addIssue({ code: 'custom', path: [name], message: RAW_CARD_RULE })
}

/**
 * The same for a `paymentMethod`, at any depth: another method's data passes through to the
 * service, so a card number nested in it (`{type: "ideal", card: {number}}`) must not.
 */
export function refuseRawCardData(value: Record<string, unknown>, context: z.RefinementCtx): void {
  const walk = (node: unknown, path: Array<string | number>, depth: number): void => {
    if (node === null || typeof node !== 'object') return
    if (depth > MAX_DEPTH) {
      context.addIssue({ code: 'custom', path, message: `nested deeper than ${MAX_DEPTH} levels` })
      return
    }
    for (const [name, inner] of Object.entries(node)) {
      const at = [...path, Array.isArray(node) ? Number(name) : name]
      if (!Array.isArray(node) && isRawCardName(name)) context.addIssue({ code: 'custom', path: at, message: RAW_CARD_RULE })
      else walk(inner, at, depth + 1)
    }
  }
  walk(value, [], 0)
}

import type * as z from 'zod'

/**
 * Methods that need the order itself, as buy-now-pay-later methods do (the spec: `lineItems`
 * "required for some methods"): the lines that make up the amount, the shopper's email and the
 * billing country. The widely used checkout API names Klarna's type `klarna`.
 */
export const LINE_ITEM_METHODS: ReadonlySet<string> = new Set(['klarna'])

/** What {@link checkOrderLineRules} reads of a payment request, parsed or as the service got it. */
export interface OrderLineFields {
  /** Its `type` says whether the rules apply. */
  readonly paymentMethod?: unknown
  /** `value` is what the lines must add up to. */
  readonly amount?: unknown
  /** The order's lines. */
  readonly lineItems?: unknown
  /** The shopper's email address. */
  readonly shopperEmail?: unknown
  /** Its `country` is needed. */
  readonly billingAddress?: unknown
}

interface Line {
  readonly quantity?: unknown
  readonly amountIncludingTax?: unknown
}

const typeOf = (method: unknown): unknown =>
  typeof method === 'object' && method !== null ? (method as { type?: unknown }).type : undefined

/**
 * A method of {@link LINE_ITEM_METHODS} needs `lineItems` whose `quantity * amountIncludingTax` add
 * up to `amount.value`, a `shopperEmail` and `billingAddress.country`. Each break names the field
 * and the rule, never a value.
 */
export function checkOrderLineRules(body: OrderLineFields, context: z.RefinementCtx): void {
  const type = typeOf(body.paymentMethod)
  if (typeof type !== 'string' || !LINE_ITEM_METHODS.has(type)) return
  const rule = (path: PropertyKey[], message: string) => context.addIssue({ code: 'custom', path, message })
  if (body.shopperEmail === undefined) rule(['shopperEmail'], `required with paymentMethod.type ${type}`)
  const address = body.billingAddress as { country?: unknown } | undefined
  if (address?.country === undefined) rule(['billingAddress', 'country'], `required with paymentMethod.type ${type}`)
  const lines = body.lineItems
  if (!Array.isArray(lines) || lines.length === 0) {
    rule(['lineItems'], `at least one line with paymentMethod.type ${type}`)
    return
  }
  let total = 0
  for (const [index, line] of (lines as Line[]).entries()) {
    if (typeof line?.amountIncludingTax !== 'number')
      rule(['lineItems', index, 'amountIncludingTax'], `required with paymentMethod.type ${type}`)
    else if (typeof line.quantity === 'number') total += line.quantity * line.amountIncludingTax
  }
  const value = (body.amount as { value?: unknown } | undefined)?.value
  if (typeof value === 'number' && total !== value) rule(['lineItems'], 'quantity * amountIncludingTax must add up to amount.value')
}

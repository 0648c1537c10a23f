import type { OrderRecord } from '@card-jwe/payment-validator'
import { CATALOGUE } from './catalogue.js'

/**
 * The demo has no shopper accounts, so every order is the demo shopper's: the email and billing
 * address a buy-now-pay-later method needs come from the shop's record, as a real shop's would from
 * its checkout's address step, never from the payment page.
 */
export const DEMO_SHOPPER = Object.freeze({
  email: 'shopper@example.com',
  billingAddress: Object.freeze({ street: 'Damrak', houseNumberOrName: '1', postalCode: '1012 LG', city: 'Amsterdam', country: 'NL' }),
})

/** The order's lines from its basket: each product's price with tax, and its tax split in whole cents. */
export function lineItemsOf(items: ReadonlyArray<{ sku: string; quantity: number }>): NonNullable<OrderRecord['lineItems']> {
  return items.map((item) => {
    const product = CATALOGUE.find((p) => p.sku === item.sku)!
    const amountExcludingTax = Math.round((product.price * 10_000) / (10_000 + product.taxPercentage))
    return {
      id: product.sku,
      description: product.name,
      quantity: item.quantity,
      amountIncludingTax: product.price,
      amountExcludingTax,
      taxAmount: product.price - amountExcludingTax,
      taxPercentage: product.taxPercentage,
    }
  })
}

import { describe, expect, it } from 'vitest'
import {
  buildPaymentRequest,
  PaymentRequestSchema,
  PaymentSubmissionSchema,
  ServicePaymentRequestSchema,
  ValidationError,
  type OrderRecord,
} from '@card-jwe/payment-validator'

const config = { returnUrl: 'https://shop.example/return' }
const lines = [
  { id: 'mug', description: 'Mug', quantity: 2, amountIncludingTax: 1210, amountExcludingTax: 1000, taxAmount: 210, taxPercentage: 2100 },
  { id: 'tea', description: 'Tea', quantity: 1, amountIncludingTax: 380, amountExcludingTax: 349, taxAmount: 31, taxPercentage: 900 },
]
const billingAddress = { street: 'Dam', houseNumberOrName: '1', postalCode: '1012 JS', city: 'Amsterdam', country: 'NL' }
const order: OrderRecord = {
  id: 7,
  reference: 'order-7',
  amount: { currency: 'EUR', value: 2800 },
  shopperEmail: 'shopper@example.com',
  billingAddress,
  lineItems: lines,
}
const klarna = { paymentMethod: { type: 'klarna' } }
const build = (o: OrderRecord, paymentMethod: Record<string, unknown> = klarna.paymentMethod, shopDefault?: number) =>
  buildPaymentRequest({
    order: o,
    submission: { orderId: o.id, reference: o.reference, amount: o.amount, paymentMethod } as never,
    config: shopDefault === undefined ? config : { ...config, captureDelayHours: shopDefault },
  })
const rulesOf = (action: () => unknown): string[] => {
  try {
    action()
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((i) => `${i.path} ${i.rule}`)
    throw error
  }
  return []
}
const serviceRules = (body: Record<string, unknown>): string[] => {
  const parsed = ServicePaymentRequestSchema.safeParse(body)
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`)
}
const serviceBody = { channel: 'web', returnUrl: 'https://shop.example/return', amount: order.amount, ...klarna }

describe('the order record carries the shopper and the lines into the payment request', () => {
  it('forwards shopperEmail, billingAddress and lineItems from the order', () => {
    const body = build(order)
    expect(body.shopperEmail).toBe('shopper@example.com')
    expect(body.billingAddress).toEqual(billingAddress)
    expect(body.lineItems).toEqual(lines)
  })

  it('never takes them from the page: a submission carrying them is refused as unknown fields', () => {
    const page = { orderId: 7, reference: 'order-7', amount: order.amount, ...klarna, shopperEmail: 'x@example.com', lineItems: [] }
    const parsed = PaymentSubmissionSchema.safeParse(page)
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues.map((i) => i.code)).toEqual(['unrecognized_keys'])
  })

  it("takes the order's captureDelayHours over the shop's default, and the default without one", () => {
    expect(build(order, klarna.paymentMethod, 24).captureDelayHours).toBe(24)
    expect(build({ ...order, captureDelayHours: 0 }, klarna.paymentMethod, 24).captureDelayHours).toBe(0)
    expect(build(order).captureDelayHours).toBeUndefined()
  })
})

describe('the rules of the new fields name the field, never the value', () => {
  it('refuses a billing country that is not an assigned ISO 3166-1 alpha-2 code', () => {
    expect(rulesOf(() => build({ ...order, billingAddress: { ...billingAddress, country: 'ZZ' } }))).toEqual([
      'billingAddress.country not an ISO 3166-1 alpha-2 code',
    ])
    expect(rulesOf(() => build({ ...order, billingAddress: { ...billingAddress, country: 'nl' } }))).toEqual([
      'billingAddress.country not an ISO 3166-1 alpha-2 code',
    ])
  })

  it('refuses line amounts that are not whole minor units, and a tax split that does not add up', () => {
    const fractional = [{ ...lines[0]!, amountIncludingTax: 12.1 }]
    expect(rulesOf(() => build({ ...order, lineItems: fractional }, { type: 'ideal' }))).toContain(
      'lineItems.0.amountIncludingTax type:int',
    )
    const split = [{ ...lines[0]!, taxAmount: 200 }]
    expect(rulesOf(() => build({ ...order, lineItems: split }, { type: 'ideal' }))).toEqual([
      'lineItems.0.amountIncludingTax amountIncludingTax must be amountExcludingTax + taxAmount',
    ])
  })

  it('refuses a negative or fractional captureDelayHours', () => {
    expect(rulesOf(() => build({ ...order, captureDelayHours: -1 }))).toEqual(['captureDelayHours too_small'])
    expect(rulesOf(() => build({ ...order, captureDelayHours: 1.5 }))).toEqual(['captureDelayHours type:int'])
    expect(serviceRules({ ...serviceBody, ...order, id: undefined, reference: 'r', captureDelayHours: -1 })).toContain(
      'captureDelayHours Too small: expected number to be >=0',
    )
  })
})

describe('a buy-now-pay-later method needs the order itself', () => {
  const full = { ...serviceBody, shopperEmail: order.shopperEmail, billingAddress, lineItems: lines }

  it('takes lines that add up to the amount, with an email and a billing country', () => {
    expect(serviceRules(full)).toEqual([])
    expect(PaymentRequestSchema.safeParse(full).success).toBe(true)
  })

  it('refuses lines whose quantity * amountIncludingTax do not add up to amount.value', () => {
    expect(serviceRules({ ...full, amount: { currency: 'EUR', value: 2801 } })).toEqual([
      'lineItems quantity * amountIncludingTax must add up to amount.value',
    ])
  })

  it('refuses it without lineItems, shopperEmail or a billing country', () => {
    const { lineItems: _l, shopperEmail: _e, billingAddress: _b, ...bare } = full
    expect(serviceRules(bare)).toEqual([
      'shopperEmail required with paymentMethod.type klarna',
      'billingAddress.country required with paymentMethod.type klarna',
      'lineItems at least one line with paymentMethod.type klarna',
    ])
  })

  it('refuses a line without amountIncludingTax', () => {
    const { amountIncludingTax: _a, amountExcludingTax: _x, taxAmount: _t, ...noPrice } = lines[1]!
    expect(serviceRules({ ...full, amount: { currency: 'EUR', value: 2420 }, lineItems: [lines[0], noPrice] })).toEqual([
      'lineItems.1.amountIncludingTax required with paymentMethod.type klarna',
    ])
  })

  it('asks nothing of the order for other methods', () => {
    expect(serviceRules({ ...serviceBody, paymentMethod: { type: 'ideal' } })).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import {
  buildPaymentRequest,
  buildSavedCardChargeRequest,
  checkSubmission,
  issuesOf,
  PaymentRequestSchema,
  ServicePaymentRequestSchema,
  type OrderRecord,
  type PaymentSubmission,
} from '@card-jwe/payment-validator'
import { BROWSER_INFO } from './support/browser-info.js'

const JWE = 'eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIiwidmVyc2lvbiI6IjEifQ.a2V5.aXY.Y2lwaGVy.dGFn'
const ID = 'pm_Q7x2Lk9'
const order: OrderRecord = { id: 7, reference: 'order-7', amount: { currency: 'EUR', value: 1500 }, shopperReference: 'shopper-42' }
const config = { returnUrl: 'https://shop.example/return' }
const base = { channel: 'web', returnUrl: 'https://shop.example/return', amount: { currency: 'EUR', value: 1500 }, reference: 'order-7' }
const browserInfo = BROWSER_INFO
const present = {
  ...base,
  paymentMethod: { type: 'scheme', storedPaymentMethodId: ID, jwe: JWE },
  shopperReference: 'shopper-42',
  shopperInteraction: 'ContAuth',
  recurringProcessingModel: 'CardOnFile',
  browserInfo,
}
const absent = {
  ...base,
  paymentMethod: { type: 'scheme', storedPaymentMethodId: ID },
  shopperReference: 'shopper-42',
  shopperInteraction: 'ContAuth',
  recurringProcessingModel: 'UnscheduledCardOnFile',
}
const saving = {
  ...base,
  paymentMethod: { type: 'scheme', jwe: JWE },
  shopperReference: 'shopper-42',
  storePaymentMethod: true,
  shopperInteraction: 'Ecommerce',
  recurringProcessingModel: 'CardOnFile',
}

const schemas = [
  ['the shop’s request (strict)', PaymentRequestSchema],
  ['the service’s request', ServicePaymentRequestSchema],
] as const

/** Field and rule of every issue, as a shop developer and the service's answer see them. */
function issues(schema: (typeof schemas)[number][1], body: unknown): Array<{ path: string; rule: string }> {
  const result = schema.safeParse(body)
  return result.success ? [] : issuesOf(result.error)
}

describe.each(schemas)('saved cards in %s', (_, schema) => {
  it('accepts paying with the shopper present, charging without, and saving', () => {
    for (const body of [present, absent, { ...absent, recurringProcessingModel: 'Subscription' }, saving]) {
      expect(issues(schema, body)).toEqual([])
    }
    // A brand without a code: the shopper present, no JWE.
    expect(issues(schema, { ...present, paymentMethod: { type: 'scheme', storedPaymentMethodId: ID } })).toEqual([])
  })

  it.each([
    [
      'no owner',
      { ...present, shopperReference: undefined },
      'shopperReference',
      'required with paymentMethod.storedPaymentMethodId (its owner)',
    ],
    [
      'no interaction',
      { ...present, shopperInteraction: undefined },
      'shopperInteraction',
      'ContAuth with paymentMethod.storedPaymentMethodId',
    ],
    [
      'Ecommerce',
      { ...present, shopperInteraction: 'Ecommerce' },
      'shopperInteraction',
      'ContAuth with paymentMethod.storedPaymentMethodId',
    ],
    [
      'no model',
      { ...absent, recurringProcessingModel: undefined },
      'recurringProcessingModel',
      'required with paymentMethod.storedPaymentMethodId',
    ],
    [
      'saving it again',
      { ...present, storePaymentMethod: true },
      'storePaymentMethod',
      'not with paymentMethod.storedPaymentMethodId (saved already)',
    ],
    [
      'a code without the shopper',
      { ...absent, paymentMethod: { type: 'scheme', storedPaymentMethodId: ID, jwe: JWE } },
      'paymentMethod.jwe',
      'not without the shopper (recurringProcessingModel Subscription or UnscheduledCardOnFile)',
    ],
    [
      'browser data without the shopper',
      { ...absent, browserInfo },
      'browserInfo',
      'not without the shopper (recurringProcessingModel Subscription or UnscheduledCardOnFile)',
    ],
    [
      'ContAuth with a new card',
      { ...base, paymentMethod: { type: 'scheme', jwe: JWE }, shopperInteraction: 'ContAuth' },
      'shopperInteraction',
      'ContAuth only with paymentMethod.storedPaymentMethodId',
    ],
    [
      'a subscription model for a new card',
      { ...saving, recurringProcessingModel: 'Subscription' },
      'recurringProcessingModel',
      'CardOnFile with storePaymentMethod, else only with paymentMethod.storedPaymentMethodId',
    ],
    ['an interaction we do not take', { ...present, shopperInteraction: 'Moto' }, 'shopperInteraction', 'invalid_value'],
    [
      'an id with other characters',
      { ...absent, paymentMethod: { type: 'scheme', storedPaymentMethodId: 'pm 1;' } },
      'paymentMethod.storedPaymentMethodId',
      '1 to 64 characters of [A-Za-z0-9_-]',
    ],
  ])('refuses %s, naming the field and the rule', (_, body, path, rule) => {
    expect(issues(schema, body)).toContainEqual({ path, rule })
  })

  it('refuses raw card fields beside a saved card’s id, by name only', () => {
    const found = issues(schema, {
      ...present,
      paymentMethod: { type: 'scheme', storedPaymentMethodId: ID, cvc: '737', expiryYear: '2030' },
    })
    expect(found).toContainEqual({ path: 'paymentMethod.cvc', rule: 'raw card data is never accepted' })
    expect(found).toContainEqual({ path: 'paymentMethod.expiryYear', rule: 'raw card data is never accepted' })
    expect(JSON.stringify(found)).not.toMatch(/737|2030/)
    // The strict schema refuses any unknown key; the service's names raw card data as such.
    expect(issues(schema, { ...absent, cvc: '737' }).map((issue) => issue.path)).toContain('cvc')
  })
})

describe('a saved card in the page’s submission', () => {
  const submission = { orderId: 7, reference: 'order-7', amount: { currency: 'EUR', value: 1500 } }

  it('takes {type: "scheme", storedPaymentMethodId, jwe?} and builds the shopper-present request', () => {
    for (const paymentMethod of [
      { type: 'scheme', storedPaymentMethodId: ID, jwe: JWE },
      { type: 'scheme', storedPaymentMethodId: ID },
    ]) {
      const check = checkSubmission({ ...submission, paymentMethod, browserInfo }, order)
      expect(check.ok).toBe(true)
      const body = buildPaymentRequest({ order, submission: (check as { submission: PaymentSubmission }).submission, config })
      expect(body).toMatchObject({
        paymentMethod,
        shopperReference: 'shopper-42',
        shopperInteraction: 'ContAuth',
        recurringProcessingModel: 'CardOnFile',
      })
      expect(body).not.toHaveProperty('storePaymentMethod')
    }
  })

  it('a request that saves a card names whose: no shopperReference, no request', () => {
    const card = { ...submission, paymentMethod: { type: 'scheme', jwe: JWE }, storePaymentMethod: true } as PaymentSubmission
    const { shopperReference: _, ...guest } = order
    expect(() => buildPaymentRequest({ order: guest, submission: card, config })).toThrow(
      /shopperReference \(required with storePaymentMethod \(whose card it saves\)\)/,
    )
  })

  it('sends Ecommerce and CardOnFile when the shopper saves a new card, and neither otherwise', () => {
    const card = { ...submission, paymentMethod: { type: 'scheme', jwe: JWE } }
    const saved = buildPaymentRequest({ order, submission: { ...card, storePaymentMethod: true } as PaymentSubmission, config })
    expect(saved).toMatchObject({ storePaymentMethod: true, shopperInteraction: 'Ecommerce', recurringProcessingModel: 'CardOnFile' })
    const once = buildPaymentRequest({ order, submission: card as PaymentSubmission, config })
    expect(once).not.toHaveProperty('shopperInteraction')
    expect(once).not.toHaveProperty('recurringProcessingModel')
  })

  it.each([
    [
      'a saved card for an order without a shopper',
      { ...submission, paymentMethod: { type: 'scheme', storedPaymentMethodId: ID } },
      { ...order, shopperReference: undefined },
      { kind: 'invalid', path: 'paymentMethod.storedPaymentMethodId', rule: 'needs a shopper: the order has no shopperReference' },
    ],
    [
      'saving a new card for an order without a shopper (the service would keep it for nobody)',
      { ...submission, paymentMethod: { type: 'scheme', jwe: JWE }, storePaymentMethod: true },
      { ...order, shopperReference: undefined },
      { kind: 'invalid', path: 'storePaymentMethod', rule: 'needs a shopper: the order has no shopperReference' },
    ],
    [
      'saving a saved card',
      { ...submission, paymentMethod: { type: 'scheme', storedPaymentMethodId: ID }, storePaymentMethod: true },
      order,
      { kind: 'invalid', path: 'storePaymentMethod', rule: 'not with paymentMethod.storedPaymentMethodId (saved already)' },
    ],
    [
      'a card number beside the id',
      { ...submission, paymentMethod: { type: 'scheme', storedPaymentMethodId: ID, number: '4111111145551142' } },
      order,
      { kind: 'invalid', path: 'paymentMethod.number', rule: 'raw card data is never accepted' },
    ],
    [
      'a shopperInteraction from the page',
      { ...submission, paymentMethod: { type: 'scheme', storedPaymentMethodId: ID }, shopperInteraction: 'ContAuth' },
      order,
      { kind: 'invalid', path: 'shopperInteraction', rule: 'unknown_key' },
    ],
  ])('refuses %s', (_, input, record, problem) => {
    const check = checkSubmission(input, record as OrderRecord)
    expect(check.ok).toBe(false)
    expect(check.ok ? [] : check.problems).toContainEqual(problem)
    expect(JSON.stringify(check)).not.toContain('4111111145551142')
  })
})

describe('buildSavedCardChargeRequest', () => {
  it('builds a charge without the shopper: the id, ContAuth and the model, no code, no browser data', () => {
    const body = buildSavedCardChargeRequest({
      order: { ...order, shopperReference: 'shopper-42' },
      storedPaymentMethodId: ID,
      recurringProcessingModel: 'Subscription',
      config,
    })
    expect(body).toEqual({
      ...base,
      metadata: { shop_order_id: 7 },
      paymentMethod: { type: 'scheme', storedPaymentMethodId: ID },
      shopperReference: 'shopper-42',
      shopperInteraction: 'ContAuth',
      recurringProcessingModel: 'Subscription',
    })
    expect(ServicePaymentRequestSchema.safeParse(body).success).toBe(true)
  })

  it('refuses an id the service could not have given, naming the field', () => {
    expect(() =>
      buildSavedCardChargeRequest({
        order: { ...order, shopperReference: 'shopper-42' },
        storedPaymentMethodId: '',
        recurringProcessingModel: 'Subscription',
        config,
      }),
    ).toThrow(/paymentMethod\.storedPaymentMethodId/)
  })
})

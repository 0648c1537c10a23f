import { describe, expect, it } from 'vitest'
import {
  CaptureRequestSchema,
  OnboardingLinkSchema,
  OnboardingStatusSchema,
  PaymentDetailsRequestSchema,
  PaymentMethodsResponseSchema,
  PaymentRequestSchema,
  PaymentResponseSchema,
  ShopSettingsBatchSchema,
  ShopSettingsSchema,
  issuesOf,
  stringMatching,
  toBrowserPaymentResult,
} from '@card-jwe/payment-validator'
import { BROWSER_INFO } from './support/browser-info.js'

const JWE = 'eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIiwidmVyc2lvbiI6IjEifQ.a2V5.aXY.Y2lwaGVy.dGFn'

/** The spec's card example, as its "Payment request (create)" table describes it. */
const cardRequest = {
  channel: 'web',
  returnUrl: 'https://shop.example/checkout/return?orderId=123',
  amount: { currency: 'EUR', value: 2800 },
  paymentMethod: { type: 'scheme', jwe: JWE },
  metadata: { shop_order_id: 123 },
  merchantAccount: 'ShopECOM',
  reference: 'order-123',
}

describe('payment request schema (strict: we build it)', () => {
  it('accepts the spec’s card example and the iDEAL method', () => {
    expect(PaymentRequestSchema.parse(cardRequest)).toEqual(cardRequest)
    expect(PaymentRequestSchema.parse({ ...cardRequest, paymentMethod: { type: 'ideal', issuer: '1121' } }).paymentMethod).toEqual({
      type: 'ideal',
      issuer: '1121',
    })
  })

  it('accepts every optional field of the table', () => {
    const full = {
      ...cardRequest,
      shopperReference: 'shopper-42',
      shopperEmail: 'shopper@example.com',
      billingAddress: { street: 'Main St', houseNumberOrName: '1', postalCode: '1011 AA', city: 'Amsterdam', country: 'NL' },
      lineItems: [{ id: 'sku-1', description: 'Tea', quantity: 2, amountIncludingTax: 1400 }],
      browserInfo: BROWSER_INFO,
      storePaymentMethod: true,
      shopperIP: '203.0.113.7',
    }
    expect(PaymentRequestSchema.safeParse(full).success).toBe(true)
  })

  it.each([
    [
      'a raw card number',
      { paymentMethod: { type: 'scheme', number: '4111111145551142', expiryMonth: '03', expiryYear: '2030', cvc: '737' } },
    ],
    ['a float amount', { amount: { currency: 'EUR', value: 28.5 } }],
    ['an amount as a string', { amount: { currency: 'EUR', value: '2800' } }],
    ['a negative amount', { amount: { currency: 'EUR', value: -1 } }],
    ['an amount above 2^53 - 1', { amount: { currency: 'EUR', value: 2 ** 53 } }],
    ['a currency not in use', { amount: { currency: 'XYZ', value: 100 } }],
    ['a returnUrl that is not http(s)', { returnUrl: 'javascript:alert(1)' }],
    ['an unknown field', { surprise: true }],
    [
      'a colour depth EMV does not allow',
      {
        browserInfo: {
          userAgent: 'UA',
          acceptHeader: '*/*',
          language: 'en',
          colorDepth: 30,
          screenHeight: 1,
          screenWidth: 1,
          timeZoneOffset: 0,
          javaEnabled: false,
        },
      },
    ],
    ['a JWE of four segments', { paymentMethod: { type: 'scheme', jwe: 'a.b.c.d' } }],
  ])('refuses %s', (_, change) => {
    expect(PaymentRequestSchema.safeParse({ ...cardRequest, ...change }).success).toBe(false)
  })
})

describe('payment response schema (loose: the service may add fields)', () => {
  it('reads an authorised payment and a redirect with its action passed through unchanged', () => {
    expect(
      PaymentResponseSchema.parse({ resultCode: 'Authorised', pspReference: 'PSP1', metadata: { shop_order_id: 123 } }).resultCode,
    ).toBe('Authorised')
    const redirect = {
      resultCode: 'RedirectShopper',
      action: { type: 'redirect', paymentMethodType: 'ideal', url: 'https://bank.example/pay', method: 'GET', extra: { nested: true } },
      pspReference: 'PSP2',
    }
    expect(PaymentResponseSchema.parse(redirect)).toEqual(redirect)
  })

  it('reads an authorised answer whose amount carries more than the request did: the payment was taken', () => {
    const answer = { resultCode: 'Authorised', pspReference: 'PSP1', amount: { currency: 'XTS', value: 2800, precision: 2 } }
    expect(PaymentResponseSchema.parse(answer)).toEqual(answer)
  })

  it('keeps an unknown resultCode (the service may add some) but requires one', () => {
    expect(PaymentResponseSchema.safeParse({ resultCode: 'PartiallyAuthorised' }).success).toBe(true)
    expect(PaymentResponseSchema.safeParse({ pspReference: 'x' }).success).toBe(false)
  })

  it('refuses an Authorised answer without its pspReference, naming the field (nothing could capture it)', () => {
    const parsed = PaymentResponseSchema.safeParse({ resultCode: 'Authorised' })
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['pspReference', 'required with resultCode Authorised'],
    ])
    expect(PaymentResponseSchema.safeParse({ resultCode: 'Refused' }).success).toBe(true)
  })

  it('gives the browser only resultCode, action, order and donationToken', () => {
    const response = PaymentResponseSchema.parse({
      resultCode: 'Authorised',
      pspReference: 'PSP1',
      metadata: { shop_order_id: 1 },
      donationToken: 'tok',
      amount: { currency: 'EUR', value: 2800 },
    })
    expect(toBrowserPaymentResult(response)).toEqual({ resultCode: 'Authorised', donationToken: 'tok' })
  })
})

describe('the other bodies', () => {
  it('payment details: details from the page and metadata', () => {
    expect(
      PaymentDetailsRequestSchema.safeParse({ details: { redirectResult: 'X3XtfGC9' }, metadata: { shop_order_id: 123 } }).success,
    ).toBe(true)
    expect(PaymentDetailsRequestSchema.safeParse({ details: {} }).success).toBe(false)
    expect(PaymentDetailsRequestSchema.safeParse({ details: { threeDSResult: 'eyJ0cmFuc1N0YXR1cyI6IlkifQ==' }, extra: 1 }).success).toBe(
      false,
    )
  })

  it('names a details key refused for its characters by the rule alone, never the key', () => {
    const typed = '4111 1111 4555 1142'
    const result = PaymentDetailsRequestSchema.safeParse({ details: { [typed]: 'x' } })
    expect(result.success).toBe(false)
    const issues = issuesOf(result.error!)
    expect(issues).toEqual([{ path: 'details', rule: 'each key: 1 to 64 characters of [A-Za-z0-9_]' }])
    expect(JSON.stringify(issues)).not.toContain('4111')
  })

  it('stringMatching judges the same text the same each time, whatever flags its pattern has', () => {
    for (const flags of ['', 'g', 'y', 'gi']) {
      const schema = stringMatching(new RegExp('^a+$', flags), 'only a')
      expect([1, 2, 3].map(() => schema.safeParse('aa').success)).toEqual([true, true, true])
      expect(issuesOf(schema.safeParse('ab').error!)).toEqual([{ path: '(body)', rule: 'only a' }])
    }
  })

  it('capture and refund: an amount, full or partial', () => {
    expect(CaptureRequestSchema.parse({ amount: { currency: 'EUR', value: 1000 } })).toEqual({ amount: { currency: 'EUR', value: 1000 } })
    expect(CaptureRequestSchema.safeParse({ amount: { currency: 'EUR', value: 10.5 } }).success).toBe(false)
  })

  it('shop settings: the service_secret entry, empty at first; the batch update', () => {
    expect(ShopSettingsSchema.parse([{ id: 'service_secret', value: '' }])).toEqual([{ id: 'service_secret', value: '' }])
    expect(ShopSettingsBatchSchema.safeParse({ update: [{ id: 'service_secret', value: 's3cr3t' }] }).success).toBe(true)
    expect(ShopSettingsBatchSchema.safeParse({ update: [] }).success).toBe(false)
  })

  it('onboarding status and link', () => {
    const status = { status: 'verification-required', errors: [{ problem: 'Missing identity document', actions: ['Upload a passport'] }] }
    expect(OnboardingStatusSchema.parse(status)).toEqual(status)
    expect(OnboardingLinkSchema.parse({ uri: 'https://onboarding.example/abc' }).uri).toBe('https://onboarding.example/abc')
    expect(OnboardingLinkSchema.safeParse({ uri: 'not a url' }).success).toBe(false)
  })

  it('payment-methods response passes through unchanged', () => {
    const response = {
      paymentMethods: [
        { type: 'scheme', name: 'Cards', brands: ['visa', 'mc'] },
        { type: 'ideal', name: 'iDEAL' },
      ],
      unknownTopLevel: 1,
    }
    expect(PaymentMethodsResponseSchema.parse(response)).toEqual(response)
  })
})

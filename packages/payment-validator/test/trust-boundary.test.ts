import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildPaymentDetailsRequest,
  buildPaymentRequest,
  checkSubmission,
  DEFAULT_MAX_BODY_BYTES,
  parseJsonBody,
  PaymentSubmissionSchema,
  type OrderRecord,
  type PaymentSubmission,
  type SubmissionProblem,
} from '@card-jwe/payment-validator'

const JWE = 'eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIiwidmVyc2lvbiI6IjEifQ.a2V5.aXY.Y2lwaGVy.dGFn'
const order: OrderRecord = { id: 123, reference: 'order-123', amount: { currency: 'EUR', value: 2800 } }
const honest = {
  orderId: 123,
  reference: 'order-123',
  amount: { currency: 'EUR', value: 2800 },
  paymentMethod: { type: 'scheme', jwe: JWE },
}
const config = { returnUrl: (o: OrderRecord) => `https://shop.example/return?orderId=${o.id}` }

const problemsOf = (submission: unknown): readonly SubmissionProblem[] => {
  const result = checkSubmission(submission, order)
  return result.ok ? [] : result.problems
}

/** Every tamper case and what it must return; the closing note lists these. */
const TAMPER_CASES: Array<[string, unknown, SubmissionProblem[]]> = [
  [
    'amount raised',
    { ...honest, amount: { currency: 'EUR', value: 2801 } },
    [{ kind: 'mismatch', field: 'amount.value', rule: "must equal the order's amount.value", expected: 2800 }],
  ],
  [
    'amount lowered',
    { ...honest, amount: { currency: 'EUR', value: 1 } },
    [{ kind: 'mismatch', field: 'amount.value', rule: "must equal the order's amount.value", expected: 2800 }],
  ],
  [
    'currency switched',
    { ...honest, amount: { currency: 'JPY', value: 2800 } },
    [{ kind: 'mismatch', field: 'amount.currency', rule: "must equal the order's amount.currency", expected: 'EUR' }],
  ],
  [
    'reference swapped',
    { ...honest, reference: 'order-124' },
    [{ kind: 'mismatch', field: 'reference', rule: "must equal the order's reference", expected: 'order-123' }],
  ],
  [
    'amount sent as a float',
    { ...honest, amount: { currency: 'EUR', value: 28.0001 } },
    [
      { kind: 'invalid', path: 'amount.value', rule: 'type:int' },
      { kind: 'mismatch', field: 'amount.value', rule: "must equal the order's amount.value", expected: 2800 },
    ],
  ],
  [
    'amount negative',
    { ...honest, amount: { currency: 'EUR', value: -2800 } },
    [
      { kind: 'invalid', path: 'amount.value', rule: 'too_small' },
      { kind: 'mismatch', field: 'amount.value', rule: "must equal the order's amount.value", expected: 2800 },
    ],
  ],
  [
    'amount above 2^53',
    { ...honest, amount: { currency: 'EUR', value: 2 ** 53 + 2 } },
    [
      { kind: 'invalid', path: 'amount.value', rule: 'too_big' },
      { kind: 'mismatch', field: 'amount.value', rule: "must equal the order's amount.value", expected: 2800 },
    ],
  ],
  [
    'currency that does not exist',
    { ...honest, amount: { currency: 'XEU', value: 2800 } },
    [
      { kind: 'invalid', path: 'amount.currency', rule: 'not an ISO 4217 code in use' },
      { kind: 'mismatch', field: 'amount.currency', rule: "must equal the order's amount.currency", expected: 'EUR' },
    ],
  ],
  [
    'currency in lower case: its shape said, once',
    { ...honest, amount: { currency: 'eur', value: 2800 } },
    [
      { kind: 'invalid', path: 'amount.currency', rule: 'three capital letters, as EUR' },
      { kind: 'mismatch', field: 'amount.currency', rule: "must equal the order's amount.currency", expected: 'EUR' },
    ],
  ],
  [
    'raw card fields beside the payment method, not in it',
    { ...honest, number: '4111111145551142', cvc: '737', expiryMonth: '03' },
    [
      { kind: 'invalid', path: 'number', rule: 'raw card data is never accepted' },
      { kind: 'invalid', path: 'cvc', rule: 'raw card data is never accepted' },
      { kind: 'invalid', path: 'expiryMonth', rule: 'raw card data is never accepted' },
    ],
  ],
  [
    'a key named as a card field deeper in the body: an unknown key, as any other there',
    { ...honest, amount: { currency: 'EUR', value: 2800, number: 1 } },
    [{ kind: 'invalid', path: 'amount.number', rule: 'unknown_key' }],
  ],
  [
    "a card's JWE under another type than scheme",
    { ...honest, paymentMethod: { type: 'card', jwe: 'a.b.c.d.e' } },
    [{ kind: 'invalid', path: 'paymentMethod.type', rule: "scheme: a card's jwe goes with type scheme" }],
  ],
  [
    'a payment method without its type',
    { ...honest, paymentMethod: { jwe: 'a.b.c.d.e' } },
    [{ kind: 'invalid', path: 'paymentMethod.type', rule: 'required' }],
  ],
  [
    'extra fields',
    { ...honest, returnUrl: 'https://evil.example', metadata: { shop_order_id: 1 } },
    [
      { kind: 'invalid', path: 'returnUrl', rule: 'unknown_key' },
      { kind: 'invalid', path: 'metadata', rule: 'unknown_key' },
    ],
  ],
  [
    'amount missing',
    { ...honest, amount: undefined },
    [
      { kind: 'invalid', path: 'amount', rule: 'required' },
      { kind: 'mismatch', field: 'amount.value', rule: "must equal the order's amount.value", expected: 2800 },
      { kind: 'mismatch', field: 'amount.currency', rule: "must equal the order's amount.currency", expected: 'EUR' },
    ],
  ],
  [
    'raw card fields instead of a JWE',
    { ...honest, paymentMethod: { type: 'scheme', number: '4111111145551142', cvc: '737' } },
    [
      { kind: 'invalid', path: 'paymentMethod.number', rule: 'raw card data is never accepted' },
      { kind: 'invalid', path: 'paymentMethod.cvc', rule: 'raw card data is never accepted' },
    ],
  ],
  // A card's own field is named, not its type: "any other method" refuses type scheme, but leaves it to the card forms.
  [
    'a JWE that is not five segments',
    { ...honest, paymentMethod: { type: 'scheme', jwe: 'not-a-jwe' } },
    [{ kind: 'invalid', path: 'paymentMethod.jwe', rule: 'a compact JWE: five base64url parts joined by dots' }],
  ],
  [
    'a JWE that is not a string',
    { ...honest, paymentMethod: { type: 'scheme', jwe: 5 } },
    [{ kind: 'invalid', path: 'paymentMethod.jwe', rule: 'type:string' }],
  ],
  [
    'a card without its JWE',
    { ...honest, paymentMethod: { type: 'scheme' } },
    // Either names the card, a JWE of a new card or a saved card's id: one choice, not two fields that read as both required.
    [{ kind: 'invalid', path: 'paymentMethod', rule: 'one of: jwe required | storedPaymentMethodId required' }],
  ],
  [
    "a whole card's JWE in the processor library's number field",
    { ...honest, paymentMethod: { type: 'scheme', encryptedCardNumber: honest.paymentMethod.jwe } },
    // Three forms tie on two issues each; the field the page used says what it meant.
    [
      {
        kind: 'invalid',
        path: 'paymentMethod.encryptedCardNumber',
        rule: "a card's one JWE goes in jwe; encryptedCardNumber comes with encryptedExpiryMonth and encryptedExpiryYear",
      },
    ],
  ],
  [
    'a card under a field name of another API',
    { ...honest, paymentMethod: { type: 'scheme', encryptedCard: 'x' } },
    // What every form refuses is said once, beside the choice.
    [
      { kind: 'invalid', path: 'paymentMethod', rule: 'one of: jwe required | storedPaymentMethodId required' },
      { kind: 'invalid', path: 'paymentMethod.encryptedCard', rule: 'unknown_key' },
    ],
  ],
]

describe('checkSubmission: the trust boundary', () => {
  it('lets an honest submission through', () => {
    expect(checkSubmission(honest, order)).toEqual({ ok: true, submission: honest })
  })

  it.each(TAMPER_CASES)('catches %s', (name, submission, expected) => {
    const problems = problemsOf(submission)
    console.info(`tamper: ${name} -> ${JSON.stringify(problems)}`)
    expect(problems).toEqual(expected)
  })

  it.each([
    ['under another name', { type: 'scheme', pan: '4111111145551142', cvc2: '737' }, ['paymentMethod.pan', 'paymentMethod.cvc2']],
    ['in another letter case, in another method', { type: 'card', Number: '4111111145551142' }, ['paymentMethod.Number']],
    [
      'nested in another method',
      { type: 'ideal', card: { number: '4111111145551142', cvc: '737' } },
      ['paymentMethod.card.number', 'paymentMethod.card.cvc'],
    ],
    ['in a list in another method', { type: 'giftcard', cards: [{ expiryDate: '03/30' }] }, ['paymentMethod.cards.0.expiryDate']],
  ])('refuses a raw card %s, by name only, and never builds a request with it', (_, paymentMethod, paths) => {
    const submission = { ...honest, paymentMethod }
    const problems = problemsOf(submission)
    for (const path of paths) expect(problems).toContainEqual({ kind: 'invalid', path, rule: 'raw card data is never accepted' })
    expect(JSON.stringify(problems)).not.toMatch(/4111|737|03\/30/)
    expect(() => buildPaymentRequest({ order, submission: submission as PaymentSubmission, config })).toThrow()
  })

  it('refuses encrypted card fields that hold plain digits (raw card data typed into them), by name only', () => {
    const paymentMethod = {
      type: 'scheme',
      encryptedCardNumber: '4111 1111 4555 1142',
      encryptedExpiryMonth: '03',
      encryptedExpiryYear: '2030',
      encryptedSecurityCode: '737',
    }
    const submission = { ...honest, paymentMethod }
    const problems = problemsOf(submission)
    const rule = 'encrypted by the front-end library, never plain digits (raw card data)'
    for (const field of Object.keys(paymentMethod).filter((name) => name !== 'type'))
      expect(problems).toContainEqual({ kind: 'invalid', path: `paymentMethod.${field}`, rule })
    expect(JSON.stringify(problems)).not.toMatch(/4111|737|2030/)
    expect(() => buildPaymentRequest({ order, submission: submission as PaymentSubmission, config })).toThrow()
    // What the library makes passes: ciphertext is not digits alone.
    const encrypted = { ...paymentMethod, encryptedCardNumber: 'lib_0_1$QUJD$REVG', encryptedExpiryMonth: 'lib_0_1$R0hJ' }
    const ciphertext = { ...encrypted, encryptedExpiryYear: 'lib_0_1$SktM', encryptedSecurityCode: 'lib_0_1$TU5P' }
    expect(problemsOf({ ...honest, paymentMethod: ciphertext })).toEqual([])
  })

  it('refuses a payment method nested deeper than the raw-card check looks, naming where', () => {
    const deep = { a: { a: { a: { a: { a: { a: { a: { a: { a: { number: '4111111145551142', cvc: '737' } } } } } } } } } }
    const submission = { ...honest, paymentMethod: { type: 'ideal', ...deep } }
    const problems = problemsOf(submission)
    expect(problems).toEqual([{ kind: 'invalid', path: 'paymentMethod.a.a.a.a.a.a.a.a.a', rule: 'nested deeper than 8 levels' }])
    expect(() => buildPaymentRequest({ order, submission: submission as PaymentSubmission, config })).toThrow()
  })

  it('refuses a card method whose type is scheme in another letter case', () => {
    const problems = problemsOf({ ...honest, paymentMethod: { type: 'Scheme', holder: 'x' } })
    expect(problems).not.toEqual([])
  })

  it('reports amount, currency and reference together when all are off', () => {
    const problems = problemsOf({ ...honest, reference: 'x', amount: { currency: 'USD', value: 1 } })
    expect(problems.map((p) => (p.kind === 'mismatch' ? p.field : p.path))).toEqual(['amount.value', 'amount.currency', 'reference'])
  })

  it('says what a field that fits none of its forms should be, not "invalid_union"', () => {
    const invalid = (submission: unknown) => problemsOf(submission).filter((p) => p.kind === 'invalid')
    expect(invalid({ ...honest, orderId: {} })).toEqual([{ kind: 'invalid', path: 'orderId', rule: 'one of: type:number, type:string' }])
    expect(invalid({ ...honest, paymentMethod: { type: 'scheme', jwe: 'not-a-jwe' } })).toContainEqual({
      kind: 'invalid',
      path: 'paymentMethod.jwe',
      rule: 'a compact JWE: five base64url parts joined by dots',
    })
    expect(JSON.stringify(problemsOf({ ...honest, paymentMethod: 'x' }))).not.toContain('invalid_union')
  })

  it('says in words what an order id and a method type may hold, never format:regex', () => {
    const invalid = (submission: unknown) => problemsOf(submission).filter((p) => p.kind === 'invalid')
    expect(invalid({ ...honest, orderId: 'order 1;' })).toEqual([
      { kind: 'invalid', path: 'orderId', rule: '1 to 64 characters of [A-Za-z0-9_-]' },
    ])
    const typeRule = 'a letter, then up to 63 of [A-Za-z0-9_.-], never 4 digits in a row'
    expect(invalid({ ...honest, paymentMethod: { type: 'pay pal' } })).toEqual([
      { kind: 'invalid', path: 'paymentMethod.type', rule: typeRule },
    ])
    // A card number typed as the type would be stored as the attempt's method and shown by the admin routes.
    const card = '4111111145551142'
    for (const type of [card, `visa${card}`])
      expect(invalid({ ...honest, paymentMethod: { type } })).toEqual([{ kind: 'invalid', path: 'paymentMethod.type', rule: typeRule }])
    expect(invalid({ ...honest, paymentMethod: { type: 'klarna_b2b' } })).toEqual([])
    // Under any method an encrypted field is never plain digits: another method's data would be sent on as it is.
    const plain = invalid({ ...honest, paymentMethod: { type: 'ideal', encryptedCardNumber: card } })
    expect(plain).toEqual([
      {
        kind: 'invalid',
        path: 'paymentMethod.encryptedCardNumber',
        rule: 'encrypted by the front-end library, never plain digits (raw card data)',
      },
    ])
    expect(JSON.stringify(plain)).not.toContain(card)
    // As a JSON number, or under another letter case, too.
    for (const method of [
      { type: 'ideal', encryptedCardNumber: Number(card) },
      { type: 'ideal', EncryptedCardNumber: card },
    ])
      expect(invalid({ ...honest, paymentMethod: method })).toEqual([
        expect.objectContaining({ rule: 'encrypted by the front-end library, never plain digits (raw card data)' }),
      ])
    const browserInfo = {
      userAgent: 'UA',
      acceptHeader: '*/*',
      language: 'en_GB',
      colorDepth: 24,
      screenHeight: 1,
      screenWidth: 1,
      timeZoneOffset: 0,
      javaEnabled: false,
    }
    expect(invalid({ ...honest, browserInfo })).toEqual([
      { kind: 'invalid', path: 'browserInfo.language', rule: 'a BCP 47 language tag, as en-GB' },
    ])
  })

  it('says a missing field is required, whatever its forms, and a field of the wrong type by its type', () => {
    const invalid = (submission: unknown) => problemsOf(submission).filter((p) => p.kind === 'invalid')
    const { orderId: _, paymentMethod: __, ...rest } = honest
    expect(invalid(rest)).toEqual([
      { kind: 'invalid', path: 'orderId', rule: 'required' },
      { kind: 'invalid', path: 'paymentMethod', rule: 'required' },
    ])
    expect(invalid({ ...honest, reference: undefined })).toEqual([{ kind: 'invalid', path: 'reference', rule: 'required' }])
    expect(invalid({ ...honest, reference: 5 })).toEqual([{ kind: 'invalid', path: 'reference', rule: 'type:string' }])
    expect(invalid({ ...honest, orderId: null })).toEqual([{ kind: 'invalid', path: 'orderId', rule: 'one of: type:number, type:string' }])
  })

  it('never repeats what the page sent: a card number typed into reference stays out of the verdict', () => {
    const card = '4111111145551142'
    const problems = problemsOf({ ...honest, reference: card, amount: { currency: 'EUR', value: Number(card) } })
    expect(problems.map((p) => (p.kind === 'mismatch' ? p.field : p.path))).toEqual(['amount.value', 'reference'])
    expect(JSON.stringify(problems)).not.toContain(card)
  })

  it('never repeats card data sent as a key: a card number, code or expiry as a field name is named [key]', () => {
    // Digits apart count as much as digits in a row: `a4-1-1-1…` is the number, `exp12-30` the expiry.
    const keys = ['4111111145551142', '737', '03/2030', 'cvc737', 'a4-1-1-1-1-1-1-1-4-5-5-5-1-1-4-2', 'exp12-30', 'c7v3c7']
    const problems = problemsOf({
      ...honest,
      paymentMethod: { type: 'scheme', jwe: JWE, ...Object.fromEntries(keys.map((k) => [k, 'x'])) },
    })
    expect(problems).toContainEqual({ kind: 'invalid', path: 'paymentMethod.[key]', rule: 'unknown_key' })
    for (const key of keys) expect(JSON.stringify(problems)).not.toContain(key)
    // A plain name with a digit or two is still named, so a typo stays easy to find.
    expect(problemsOf({ ...honest, address2: 'x' })).toContainEqual({ kind: 'invalid', path: 'address2', rule: 'unknown_key' })
  })

  it('never lets any change to amount, currency or reference through', () => {
    const change = fc.record({
      value: fc.oneof(fc.integer(), fc.double(), fc.constant(undefined)),
      currency: fc.oneof(fc.constantFrom('EUR', 'USD', 'JPY', 'eur', ''), fc.string()),
      reference: fc.oneof(fc.constant('order-123'), fc.string()),
    })
    fc.assert(
      fc.property(change, ({ value, currency, reference }) => {
        const submission = { ...honest, reference, amount: { currency, value } }
        const same = value === 2800 && currency === 'EUR' && reference === 'order-123'
        expect(checkSubmission(submission, order).ok).toBe(same)
      }),
      { numRuns: 500, seed: 20261121 },
    )
  })
})

describe('buildPaymentRequest: amounts from the record, card data from the page', () => {
  const submission = PaymentSubmissionSchema.parse({ ...honest, storePaymentMethod: false }) as PaymentSubmission

  it('takes amount, reference, metadata, channel and returnUrl from the record and configuration', () => {
    const body = buildPaymentRequest({ order, submission, config, shopperIP: '203.0.113.7' })
    expect(body).toEqual({
      channel: 'web',
      returnUrl: 'https://shop.example/return?orderId=123',
      amount: { currency: 'EUR', value: 2800 },
      reference: 'order-123',
      metadata: { shop_order_id: 123 },
      paymentMethod: { type: 'scheme', jwe: JWE },
      shopperIP: '203.0.113.7',
      storePaymentMethod: false,
    })
  })

  it("sends the record's shopperReference (to save the card the page asked to save), and none without one", () => {
    const saving = buildPaymentRequest({
      order: { ...order, shopperReference: 'shopper-42' },
      submission: { ...submission, storePaymentMethod: true },
      config,
    })
    expect(saving).toMatchObject({ shopperReference: 'shopper-42', storePaymentMethod: true })
    expect(buildPaymentRequest({ order, submission, config })).not.toHaveProperty('shopperReference')
  })

  it('uses the record even when handed a submission that disagrees with it', () => {
    const lying = { ...submission, amount: { currency: 'EUR', value: 1 }, reference: 'other' }
    const body = buildPaymentRequest({ order, submission: lying, config })
    expect(body.amount).toEqual(order.amount)
    expect(body.reference).toBe(order.reference)
  })

  it('refuses to build an invalid body, naming the field', () => {
    expect(() => buildPaymentRequest({ order, submission, config: { returnUrl: 'ftp://shop.example' } })).toThrow(
      /returnUrl \(format:url\)/,
    )
  })

  it('builds payment details from the page’s details alone, with no order id an answer could echo as the payment’s', () => {
    expect(buildPaymentDetailsRequest(order, { orderId: 123, details: { redirectResult: 'abc' } })).toEqual({
      details: { redirectResult: 'abc' },
    })
  })
})

describe('parseJsonBody', () => {
  it('parses a body against a schema', () => {
    expect(parseJsonBody(JSON.stringify(honest), PaymentSubmissionSchema)).toEqual({ ok: true, value: honest })
  })

  it(`refuses bodies over ${DEFAULT_MAX_BODY_BYTES} bytes before parsing`, () => {
    const result = parseJsonBody(`"${'x'.repeat(DEFAULT_MAX_BODY_BYTES)}"`, PaymentSubmissionSchema)
    expect(result.ok || result.error.code).toBe('ERR_BODY_TOO_LARGE')
  })

  it('says "not valid JSON" without quoting the body, card digits included', () => {
    const result = parseJsonBody('{"number": 4111111145551142, ', PaymentSubmissionSchema)
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.message).toBe('body: not valid JSON')
      expect(result.error.message).not.toMatch(/4111/)
    }
  })

  it('survives deep nesting and names fields, never values, in its errors', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000)
    expect(parseJsonBody(deep, PaymentSubmissionSchema, { maxBytes: 1_000_000 }).ok).toBe(false)
    const result = parseJsonBody(
      JSON.stringify({ ...honest, paymentMethod: { type: 'scheme', number: '4111111145551142' } }),
      PaymentSubmissionSchema,
    )
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.message).not.toMatch(/411111|551142/)
  })
})

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit'
import { createServiceClient, ServiceError, type ServiceClient } from '@card-jwe/service-client'
import { freshDataDir, registeredShop, type RegisteredShop } from './support/sandbox-fixture.js'
import { actionField, decideOnBankPage } from './support/browser-steps.js'

const visa = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
const eur = (value: number) => ({ currency: 'EUR', value })
const lines = [
  { id: 'mug', description: 'Mug', quantity: 2, amountIncludingTax: 1210, amountExcludingTax: 1000, taxAmount: 210, taxPercentage: 2100 },
  { id: 'tea', description: 'Tea', quantity: 1, amountIncludingTax: 380, amountExcludingTax: 349, taxAmount: 31, taxPercentage: 900 },
]
const billingAddress = { street: 'Dam', houseNumberOrName: '1', postalCode: '1012 JS', city: 'Amsterdam', country: 'NL' }
const klarnaTerms = { paymentMethod: { type: 'klarna' }, shopperEmail: 'shopper@example.com', billingAddress, lineItems: lines }

/** `status code: message` of a refusal, or 'accepted'. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ServiceError) return `${error.status} ${error.code}: ${error.message}`
    throw error
  }
  return 'accepted'
}

/** Every change of one payment in updated-payments, from the start. */
async function changesOf(client: ServiceClient, pspReference: string) {
  const page = await client.updatedPayments({ after: 0, limit: 500 })
  return page.payments
    .filter((p) => p.pspReference === pspReference)
    .map((p) => ({ status: p.status, captured: p.capturedAmount.value, changedAt: p.changedAt }))
}

describe('the buy-now-pay-later method (klarna)', () => {
  let fixture: RegisteredShop
  beforeAll(async () => {
    fixture = await registeredShop()
  })
  afterAll(() => fixture.close())
  const klarnaPayment = async (extra: Record<string, unknown> = {}) => ({ ...(await fixture.cardPayment(visa)), ...klarnaTerms, ...extra })

  it('is listed for the countries it serves only', async () => {
    const types = async (country: string) =>
      (await fixture.client.checkoutPaymentMethods(fixture.storeId, { country })).paymentMethods?.map((m) => m.type)
    expect(await types('DE')).toEqual(['scheme', 'klarna'])
    expect(await types('NL')).toEqual(['scheme', 'ideal', 'klarna'])
    expect(await types('JP')).toEqual(['scheme'])
  })

  it.each([
    ['approve', 'Authorised'],
    ['decline', 'Refused'],
  ] as const)('redirects to its page, where the shopper is %sd: %s', async (decision, resultCode) => {
    const first = await fixture.client.createPayment(fixture.storeId, await klarnaPayment())
    expect(first).toMatchObject({ resultCode: 'RedirectShopper', action: { type: 'redirect', paymentMethodType: 'klarna' } })
    const page = await (await fetch(actionField(first, 'url'))).text()
    expect(page).toContain('Sandbox pay later (klarna)')
    const redirectResult = await decideOnBankPage(actionField(first, 'url'), decision)
    const final = await fixture.client.paymentDetails(fixture.storeId, { details: { redirectResult } })
    expect(final).toMatchObject({ resultCode, pspReference: first.pspReference })
  })

  it('refuses lines that do not add up to the amount, naming lineItems', async () => {
    expect(await refusal(fixture.client.createPayment(fixture.storeId, await klarnaPayment({ amount: eur(2801) })))).toBe(
      '422 INVALID_REQUEST: payment request: lineItems (quantity * amountIncludingTax must add up to amount.value)',
    )
  })

  it('refuses it without lineItems, shopperEmail or a billing country, naming each', async () => {
    const { lineItems: _l, shopperEmail: _e, billingAddress: _b, ...bare } = await klarnaPayment()
    const answer = await refusal(fixture.client.createPayment(fixture.storeId, bare))
    expect(answer).toContain('shopperEmail (required with paymentMethod.type klarna)')
    expect(answer).toContain('billingAddress.country (required with paymentMethod.type klarna)')
    expect(answer).toContain('lineItems (at least one line with paymentMethod.type klarna)')
  })

  it('refuses a billing country it does not serve, naming billingAddress.country', async () => {
    const payment = await klarnaPayment({ billingAddress: { ...billingAddress, country: 'JP' } })
    expect(await refusal(fixture.client.createPayment(fixture.storeId, payment))).toBe(
      '422 INVALID_REQUEST: billingAddress.country: klarna is not offered in this country',
    )
  })

  it('captures in parts as goods ship, and refunds by line', async () => {
    const first = await fixture.client.createPayment(fixture.storeId, await klarnaPayment())
    await fixture.client.paymentDetails(fixture.storeId, {
      details: { redirectResult: await decideOnBankPage(actionField(first, 'url'), 'approve') },
    })
    const psp = first.pspReference!
    await fixture.client.capture(psp, eur(2420))
    await fixture.client.capture(psp, eur(380))
    expect((await changesOf(fixture.client, psp)).map((c) => c.status)).toEqual([
      'redirect_shopper',
      'authorised',
      'partially_captured',
      'captured',
    ])
    expect(await refusal(fixture.client.refund(psp, eur(1210), { lineItems: [{ id: 'mug', quantity: 1 }] }))).toBe('accepted')
    expect(await refusal(fixture.client.refund(psp, eur(2420), { lineItems: [{ id: 'mug', quantity: 2 }] }))).toBe(
      '422 INVALID_REQUEST: lineItems.0.quantity: more than is left of the line to refund',
    )
    expect(await refusal(fixture.client.refund(psp, eur(999), { lineItems: [{ id: 'tea', quantity: 1 }] }))).toBe(
      '422 INVALID_REQUEST: lineItems: quantity * amountIncludingTax must add up to amount.value',
    )
    expect(await refusal(fixture.client.refund(psp, eur(380), { lineItems: [{ id: 'cup', quantity: 1 }] }))).toBe(
      '422 INVALID_REQUEST: lineItems.0.id: not a line of this payment',
    )
    expect(
      await refusal(
        fixture.client.refund(psp, eur(1590), {
          lineItems: [
            { id: 'mug', quantity: 1 },
            { id: 'tea', quantity: 1 },
          ],
        }),
      ),
    ).toBe('accepted')
    expect((await changesOf(fixture.client, psp)).at(-1)).toMatchObject({ status: 'refunded' })
  })
})

describe('captureDelayHours: when the money is taken', () => {
  let fixture: RegisteredShop
  // The sandbox's clock, and a client signing on it (the signature's timestamp must be near it); each
  // test starts at the real time, as the card's JWE is made on it.
  let clock = new Date()
  let client: ServiceClient
  beforeAll(async () => {
    fixture = await registeredShop(freshDataDir(), { now: () => clock })
    client = createServiceClient({ baseUrl: fixture.sandbox.baseUrl, credentials: fixture.credentials, now: () => clock })
  })
  beforeEach(() => {
    clock = new Date()
  })
  afterAll(() => fixture.close())

  it('0 captures at authorisation: the feed shows it captured with no capture call', async () => {
    const paid = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(visa, { captureDelayHours: 0 }))
    expect(paid.resultCode).toBe('Authorised')
    expect((await changesOf(client, paid.pspReference!)).map(({ status, captured }) => ({ status, captured }))).toEqual([
      { status: 'authorised', captured: 0 },
      { status: 'captured', captured: 2800 },
    ])
  })

  it('n captures n hours later on the sandbox clock, and the feed shows it when it happens', async () => {
    const paid = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(visa, { captureDelayHours: 24 }))
    const authorisedAt = clock.getTime()
    expect((await changesOf(client, paid.pspReference!)).map((c) => c.status)).toEqual(['authorised'])
    clock = new Date(authorisedAt + 23 * 3_600_000)
    expect((await changesOf(client, paid.pspReference!)).map((c) => c.status)).toEqual(['authorised'])
    clock = new Date(authorisedAt + 25 * 3_600_000)
    expect(await changesOf(client, paid.pspReference!)).toEqual([
      expect.objectContaining({ status: 'authorised' }),
      { status: 'captured', captured: 2800, changedAt: new Date(authorisedAt + 24 * 3_600_000).toISOString() },
    ])
  })

  it('absent leaves the capture to the shop', async () => {
    const paid = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(visa))
    clock = new Date(clock.getTime() + 1000 * 3_600_000)
    expect((await changesOf(client, paid.pspReference!)).map((c) => c.status)).toEqual(['authorised'])
  })

  it('a delayed capture takes nothing from a payment cancelled before it falls due', async () => {
    const paid = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(visa, { captureDelayHours: 2 }))
    await client.cancel(paid.pspReference!)
    clock = new Date(clock.getTime() + 3 * 3_600_000)
    expect((await changesOf(client, paid.pspReference!)).map((c) => c.status)).toEqual(['authorised', 'cancelled'])
  })

  it.each([
    [-1, 'captureDelayHours (too_small)'],
    [1.5, 'captureDelayHours (type:int)'],
  ])('refuses captureDelayHours %s, naming the field', async (hours, named) => {
    const answer = await refusal(
      fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(visa, { captureDelayHours: hours })),
    )
    expect(answer).toBe(`422 INVALID_REQUEST: payment request: ${named}`)
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit'
import { ServiceError, type ServiceClient } from '@card-jwe/service-client'
import { CHALLENGE_ANSWER } from '@card-jwe/sandbox'
import { freshDataDir, registeredShop, type RegisteredShop } from './support/sandbox-fixture.js'
import { actionField, answerChallenge, runThreeDSMethod } from './support/browser-steps.js'

const visa = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
const eur = (value: number) => ({ currency: 'EUR', value })

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ServiceError) return `${error.status} ${error.code}`
    throw error
  }
  return 'accepted'
}

/** Reads updated-payments page by page from a cursor, as a poller does. */
async function drain(
  client: ServiceClient,
  after: number,
  limit = 2,
): Promise<{ entries: Array<{ pspReference: string; status: string; sequence: number }>; cursor: number }> {
  const entries = []
  let cursor = after
  for (;;) {
    const page = await client.updatedPayments({ after: cursor, limit })
    entries.push(...page.payments)
    cursor = page.cursor
    if (!page.hasMore) return { entries, cursor }
  }
}

describe('captures, refunds and cancels (spec: Payment states)', () => {
  let fixture: RegisteredShop
  beforeAll(async () => {
    fixture = await registeredShop()
  })
  afterAll(() => fixture.close())

  it('captures in parts up to the authorised amount, refunds up to the captured amount', async () => {
    const { client, storeId } = fixture
    const payment = await client.createPayment(storeId, await fixture.cardPayment(visa))
    const psp = payment.pspReference!
    expect(await refusal(client.refund(psp, eur(1)))).toBe('422 REFUND_NOT_ALLOWED')
    expect(await client.capture(psp, eur(1000))).toMatchObject({
      paymentPspReference: psp,
      status: 'received',
      amount: eur(1000),
      metadata: payment.metadata,
    })
    expect(await refusal(client.capture(psp, eur(1801)))).toBe('422 CAPTURE_EXCEEDS_AUTHORISED')
    expect(await refusal(client.capture(psp, { currency: 'USD', value: 1 }))).toBe('422 CURRENCY_MISMATCH')
    expect(await refusal(client.cancel(psp))).toBe('422 CANCEL_NOT_ALLOWED')
    await client.capture(psp, eur(1800))
    expect(await refusal(client.capture(psp, eur(1)))).toBe('422 CAPTURE_NOT_ALLOWED')
    await client.refund(psp, eur(800))
    expect(await refusal(client.refund(psp, eur(2001)))).toBe('422 REFUND_EXCEEDS_CAPTURED')
    await client.refund(psp, eur(2000))
    expect(await refusal(client.refund(psp, eur(1)))).toBe('422 REFUND_NOT_ALLOWED')
  })

  it('cancels only an authorised payment without captures', async () => {
    const { client, storeId } = fixture
    const payment = await client.createPayment(storeId, await fixture.cardPayment(visa))
    expect(await client.cancel(payment.pspReference!)).toMatchObject({ status: 'received', paymentPspReference: payment.pspReference })
    expect(await refusal(client.cancel(payment.pspReference!))).toBe('422 CANCEL_NOT_ALLOWED')
    expect(await refusal(client.capture(payment.pspReference!, eur(1)))).toBe('422 CAPTURE_NOT_ALLOWED')
    const refused = await client.createPayment(storeId, await fixture.cardPayment(findTestCard({ outcome: 'refused', brand: 'visa' })))
    expect(await refusal(client.cancel(refused.pspReference!))).toBe('422 CANCEL_NOT_ALLOWED')
    expect(await refusal(client.capture('PSPUNKNOWN000000', eur(1)))).toBe('404 NOT_FOUND')
  })

  it('reports every change once through updated-payments, with metadata, page by page', async () => {
    const { client, storeId } = fixture
    const start = (await drain(client, 0, 500)).cursor
    const payment = await client.createPayment(storeId, await fixture.cardPayment(visa, { metadata: { shop_order_id: 77 } }))
    await client.capture(payment.pspReference!, eur(1000))
    await client.capture(payment.pspReference!, eur(1800))
    await client.refund(payment.pspReference!, eur(500))
    const { entries, cursor } = await drain(client, start)
    expect(entries.map((e) => e.status)).toEqual(['authorised', 'partially_captured', 'captured', 'partially_refunded'])
    expect(entries.every((e) => e.pspReference === payment.pspReference)).toBe(true)
    expect(entries[0]).toMatchObject({ metadata: { shop_order_id: 77 }, amount: eur(2800) })
    expect(new Set(entries.map((e) => e.sequence)).size).toBe(entries.length)
    expect((await client.updatedPayments({ after: cursor })).payments).toEqual([])
    expect(await refusal(client.updatedPayments({ after: -1 }))).toBe('422 INVALID_REQUEST')
  })

  it('only shows a shop its own payments', async () => {
    const other = await registeredShop()
    const mine = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(visa))
    expect(await refusal(other.client.capture(mine.pspReference!, eur(1)))).toBe('404 NOT_FOUND')
    expect((await other.client.updatedPayments()).payments).toEqual([])
    await other.close()
  })
})

describe('payment methods, client keys, stored cards, erasure', () => {
  let fixture: RegisteredShop
  beforeAll(async () => {
    fixture = await registeredShop()
  })
  afterAll(() => fixture.close())

  it('lists card, iDEAL and klarna, and a shopper’s stored card after storePaymentMethod', async () => {
    const { client, storeId } = fixture
    const methods = await client.checkoutPaymentMethods(storeId, { country: 'NL', currency: 'EUR' })
    expect(methods.paymentMethods?.map((m) => m.type)).toEqual(['scheme', 'ideal', 'klarna'])
    expect(methods.storedPaymentMethods).toBeUndefined()

    await client.createPayment(storeId, await fixture.cardPayment(visa, { shopperReference: 'shopper-7', storePaymentMethod: true }))
    const stored = await client.checkoutPaymentMethods(storeId, { country: 'NL', currency: 'EUR', shopper: 'shopper-7' })
    expect(stored.storedPaymentMethods).toEqual([
      expect.objectContaining({
        type: 'scheme',
        brand: 'visa',
        lastFour: visa.number.slice(-4),
        expiryMonth: visa.expiryMonth,
        expiryYear: visa.expiryYear,
      }),
    ])
    expect(JSON.stringify(stored)).not.toContain(visa.number.slice(0, 6))

    const id = (stored.storedPaymentMethods![0] as { id: string }).id
    expect(await client.unsubscribe(storeId, { shopperReference: 'shopper-7', storedPaymentMethodId: id })).toEqual({
      status: 'disabled',
      storedPaymentMethodId: id,
    })
    expect((await client.checkoutPaymentMethods(storeId, { shopper: 'shopper-7' })).storedPaymentMethods).toEqual([])
    expect(await refusal(client.unsubscribe(storeId, { shopperReference: 'shopper-7', storedPaymentMethodId: id }))).toBe('404 NOT_FOUND')
    expect(await refusal(client.checkoutPaymentMethods(storeId, { country: 'Netherlands' }))).toBe('422 INVALID_REQUEST')
  })

  it('stores a card after a 3-D Secure authorisation too', async () => {
    const { client, storeId } = fixture
    const card = findTestCard({ brand: 'mastercard', threeDSecure: 'challenge' })
    const first = await client.createPayment(
      storeId,
      await fixture.cardPayment(card, { shopperReference: 'shopper-3ds', storePaymentMethod: true }),
    )
    const second = await client.paymentDetails(storeId, { details: { threeDSResult: await runThreeDSMethod(actionField(first, 'token')) } })
    expect((await client.checkoutPaymentMethods(storeId, { shopper: 'shopper-3ds' })).storedPaymentMethods).toEqual([])
    const { threeDSResult } = await answerChallenge(actionField(second, 'token'), CHALLENGE_ANSWER)
    expect((await client.paymentDetails(storeId, { details: { threeDSResult } })).resultCode).toBe('Authorised')
    const stored = (await client.checkoutPaymentMethods(storeId, { shopper: 'shopper-3ds' })).storedPaymentMethods
    expect(stored).toEqual([expect.objectContaining({ brand: 'mastercard', lastFour: card.number.slice(-4) })])
  })

  it('gives the store’s client key on both endpoints', async () => {
    const key = await fixture.client.clientKey(fixture.storeId)
    expect(key).toMatch(/^test_/)
    expect(await fixture.client.webComponentClientKey()).toBe(key)
  })

  it('takes a subject-erasure request for a payment', async () => {
    const payment = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(visa, { shopperReference: 'shopper-9' }))
    expect(await fixture.client.subjectErasure(payment.pspReference!)).toEqual({ pspReference: payment.pspReference, status: 'received' })
  })
})

describe('restart', () => {
  it('keeps every payment and its state, mid-way through 3-D Secure too, and the cursor resumes', async () => {
    const dataDir = freshDataDir()
    const before = await registeredShop(dataDir)
    const references: string[] = []
    for (let i = 0; i < 5; i++)
      references.push((await before.client.createPayment(before.storeId, await before.cardPayment(visa))).pspReference!)
    await before.client.capture(references[0]!, eur(2800))
    await before.client.cancel(references[1]!)
    // A 3-D Secure payment stopped at the challenge: the shopper answers after the restart.
    const challenged = await before.client.createPayment(
      before.storeId,
      await before.cardPayment(findTestCard({ brand: 'visa', threeDSecure: 'challenge' })),
    )
    const challenge = await before.client.paymentDetails(before.storeId, {
      details: { threeDSResult: await runThreeDSMethod(actionField(challenged, 'token')) },
    })
    const seen = await drain(before.client, 0, 500)
    const certificate = before.sandbox.certificatePem
    await before.sandbox.close()

    // Same data folder, same shop credentials, a new process-level sandbox.
    const { startSandbox } = await import('@card-jwe/sandbox')
    const { createServiceClient } = await import('@card-jwe/service-client')
    // The same address too: the challenge token handed out before the restart points there.
    const after = await startSandbox({ dataDir, port: Number(new URL(before.sandbox.baseUrl).port), log: () => {} })
    expect(after.certificatePem).toBe(certificate)
    const client = createServiceClient({ baseUrl: after.baseUrl, credentials: before.credentials })
    expect((await drain(client, seen.cursor)).entries).toEqual([])
    expect(await refusal(client.cancel(references[0]!))).toBe('422 CANCEL_NOT_ALLOWED')
    expect(await refusal(client.capture(references[1]!, eur(1)))).toBe('422 CAPTURE_NOT_ALLOWED')
    await client.capture(references[2]!, eur(100))
    const resumed = await drain(client, seen.cursor)
    expect(resumed.entries.map((e) => [e.pspReference, e.status])).toEqual([[references[2], 'partially_captured']])
    const { threeDSResult } = await answerChallenge(actionField(challenge, 'token'), CHALLENGE_ANSWER)
    expect(await client.paymentDetails(before.storeId, { details: { threeDSResult } })).toMatchObject({
      resultCode: 'Authorised',
      pspReference: challenged.pspReference,
    })
    const all = await drain(client, 0, 500)
    expect(new Set(all.entries.map((e) => e.pspReference))).toEqual(new Set([...references, challenged.pspReference]))
    await after.close()
    await before.shop.close()
  })
})

/**
 * Paying with a saved card, through the real sandbox over HTTP with the service client: the shopper
 * present (the code-only JWE, 3-D Secure as for a new card) and absent (never an action), and every
 * refusal: another shopper's, an unknown and a removed card alike, with nothing charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CompactEncrypt, importX509 } from 'jose'
import { findTestCard, SERVICE_MESSAGES, type TestCard } from '@card-jwe/testkit'
import { encryptCard, encryptSecurityCode, importCertificate, toSavedCardPaymentMethod, type EncryptionCertificate } from 'card-jwe'
import type { PaymentRequest, PaymentResponse } from '@card-jwe/payment-validator'
import { CHALLENGE_ANSWER } from '@card-jwe/sandbox'
import { serviceError } from './support/service-error.js'
import { registeredShop, RETURN_URL, type RegisteredShop } from './support/sandbox-fixture.js'
import { actionField, answerChallenge, runThreeDSMethod } from './support/browser-steps.js'

let fixture: RegisteredShop
let certificate: EncryptionCertificate
beforeAll(async () => {
  fixture = await registeredShop()
  certificate = await importCertificate(fixture.sandbox.certificatePem)
})
afterAll(() => fixture.close())

const visa = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
const amex = findTestCard({ brand: 'american-express', threeDSecure: 'none' })
const challengeCard = findTestCard({ brand: 'mastercard', threeDSecure: 'challenge' })
const refusedOnFile = findTestCard({ outcomeWithoutShopper: 'refused' })
const bancontact = findTestCard({ brand: 'bancontact' })

let order = 5000
function base() {
  order++
  return {
    channel: 'web' as const,
    returnUrl: RETURN_URL,
    amount: { currency: 'EUR', value: 1500 },
    reference: `saved-${order}`,
    metadata: { shop_order_id: order },
  }
}

/** Paying with the shopper present: the saved card's id, the code's JWE when given. */
function present(id: string, shopperReference: string, jwe?: string): PaymentRequest {
  return {
    ...base(),
    paymentMethod: toSavedCardPaymentMethod(id, jwe),
    shopperReference,
    shopperInteraction: 'ContAuth',
    recurringProcessingModel: 'CardOnFile',
  }
}

/** Charging without the shopper: the id alone. */
function absent(
  id: string,
  shopperReference: string,
  model: 'Subscription' | 'UnscheduledCardOnFile' = 'UnscheduledCardOnFile',
): PaymentRequest {
  return {
    ...base(),
    paymentMethod: { type: 'scheme', storedPaymentMethodId: id },
    shopperReference,
    shopperInteraction: 'ContAuth',
    recurringProcessingModel: model,
  }
}

/** Runs a payment's 3-D Secure steps as the shopper would, answering the challenge. */
async function authenticate(first: PaymentResponse): Promise<PaymentResponse> {
  const { client, storeId } = fixture
  const second = await client.paymentDetails(storeId, { details: { threeDSResult: await runThreeDSMethod(actionField(first, 'token')) } })
  const { threeDSResult } = await answerChallenge(actionField(second, 'token'), CHALLENGE_ANSWER)
  return client.paymentDetails(storeId, { details: { threeDSResult } })
}

/** Saves the card for the shopper (a first payment with storePaymentMethod) and gives its id. */
async function save(card: TestCard, shopperReference: string): Promise<string> {
  const { client, storeId } = fixture
  const first = await client.createPayment(
    storeId,
    await fixture.cardPayment(card, {
      shopperReference,
      storePaymentMethod: true,
      shopperInteraction: 'Ecommerce',
      recurringProcessingModel: 'CardOnFile',
    }),
  )
  const last = first.action ? await authenticate(first) : first
  expect(last.resultCode).toBe('Authorised')
  const saved = await client.savedCards(storeId, shopperReference)
  return saved.find((c) => c.lastFour === card.number.slice(-4))!.id
}

/** Every change the feed has listed so far: a refused request must add none. */
async function feed(): Promise<string[]> {
  const page = await fixture.client.updatedPayments({ after: 0, limit: 500 })
  return page.payments.map((p) => `${p.pspReference} ${p.status}`)
}

describe('a shopper’s saved cards from the service client', () => {
  it('lists id, brand, last four and expiry, nothing more', async () => {
    await save(visa, 'shopper-list')
    const cards = await fixture.client.savedCards(fixture.storeId, 'shopper-list')
    expect(cards).toEqual([
      {
        id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
        brand: 'visa',
        lastFour: visa.number.slice(-4),
        expiryMonth: visa.expiryMonth,
        expiryYear: visa.expiryYear,
      },
    ])
    expect(await fixture.client.savedCards(fixture.storeId, 'shopper-nobody')).toEqual([])
  })
})

describe('paying with a saved card, the shopper present', () => {
  it('authorises with the code-only JWE; the feed, capture and erasure take the payment as any other', async () => {
    const id = await save(visa, 'shopper-present')
    const jwe = await encryptSecurityCode({ securityCode: '737', brand: 'visa' }, certificate)
    const result = await fixture.client.createPayment(fixture.storeId, present(id, 'shopper-present', jwe))
    expect(result).toMatchObject({ resultCode: 'Authorised', amount: { currency: 'EUR', value: 1500 }, metadata: { shop_order_id: order } })
    expect(result.action).toBeUndefined()
    expect(await feed()).toContain(`${result.pspReference} authorised`)
    expect((await fixture.client.capture(result.pspReference!, { currency: 'EUR', value: 1500 })).status).toBe('received')
    // Erasure as for any payment: the card stays saved until the shop removes it.
    expect((await fixture.client.subjectErasure(result.pspReference!)).status).toBe('received')
    expect((await fixture.client.savedCards(fixture.storeId, 'shopper-present')).map((c) => c.id)).toEqual([id])
  })

  it('takes American Express’s four digits and refuses three', async () => {
    const id = await save(amex, 'shopper-amex')
    const four = await encryptSecurityCode({ securityCode: '7373', brand: 'amex' }, certificate)
    expect((await fixture.client.createPayment(fixture.storeId, present(id, 'shopper-amex', four))).resultCode).toBe('Authorised')
    const three = await encryptSecurityCode({ securityCode: '737', brand: 'visa' }, certificate)
    const before = await feed()
    expect(await serviceError(fixture.client.createPayment(fixture.storeId, present(id, 'shopper-amex', three)))).toMatchObject({
      status: 422,
      code: 'CARD_DETAILS_INVALID',
      message: SERVICE_MESSAGES.INVALID_CARD_DETAILS,
    })
    expect(await feed()).toEqual(before)
  })

  it('refuses a brand that has a code without its JWE, charging nothing', async () => {
    const id = await save(visa, 'shopper-nocode')
    const before = await feed()
    const error = await serviceError(fixture.client.createPayment(fixture.storeId, present(id, 'shopper-nocode')))
    expect(error).toMatchObject({ status: 422, code: 'SECURITY_CODE_REQUIRED' })
    expect(error.message).toMatch(/^paymentMethod\.jwe: required/)
    expect(await feed()).toEqual(before)
  })

  it('refuses a code JWE that carries anything but the code and its time, and a whole card’s JWE', async () => {
    const id = await save(visa, 'shopper-extra')
    const key = await importX509(fixture.sandbox.certificatePem, 'RSA-OAEP-256')
    const jweOf = async (payload: object) =>
      new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
        .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' })
        .encrypt(key)
    const generationtime = new Date().toISOString()
    const before = await feed()
    for (const jwe of [
      await jweOf({ cvc: '737', generationtime, number: visa.number }),
      await jweOf({ cvc: '737', generationtime, expiryMonth: '03' }),
      await encryptCard(visa, certificate),
    ]) {
      expect(await serviceError(fixture.client.createPayment(fixture.storeId, present(id, 'shopper-extra', jwe)))).toMatchObject({
        status: 422,
        code: 'CARD_DETAILS_INVALID',
        message: SERVICE_MESSAGES.INVALID_CARD_DETAILS,
      })
    }
    expect(await feed()).toEqual(before)
    expect(fixture.logs.join('\n')).not.toContain(visa.number.slice(0, 6))
  })

  it('runs 3-D Secure for a saved card that challenges, as for a new card', async () => {
    const id = await save(challengeCard, 'shopper-3ds')
    const jwe = await encryptSecurityCode({ securityCode: '737', brand: 'mastercard' }, certificate)
    const first = await fixture.client.createPayment(fixture.storeId, present(id, 'shopper-3ds', jwe))
    expect(first).toMatchObject({ resultCode: 'IdentifyShopper', action: { type: 'threeDS2', subtype: 'fingerprint' } })
    expect((await authenticate(first)).resultCode).toBe('Authorised')
  })

  it('pays with a Bancontact card without a code, and refuses one sent with it', async () => {
    const id = await save(bancontact, 'shopper-bcmc')
    const first = await fixture.client.createPayment(fixture.storeId, present(id, 'shopper-bcmc'))
    expect(first.resultCode).toBe('IdentifyShopper')
    const jwe = await encryptSecurityCode({ securityCode: '737', brand: 'visa' }, certificate)
    const error = await serviceError(fixture.client.createPayment(fixture.storeId, present(id, 'shopper-bcmc', jwe)))
    expect(error).toMatchObject({ status: 422, code: 'INVALID_REQUEST' })
    expect(error.message).toMatch(/^paymentMethod\.jwe: /)
  })
})

describe('charging a saved card without the shopper', () => {
  it('authorises with the id alone and never answers with an action, even for a card that challenges', async () => {
    const id = await save(challengeCard, 'shopper-mit')
    for (const model of ['Subscription', 'UnscheduledCardOnFile'] as const) {
      const result = await fixture.client.createPayment(fixture.storeId, absent(id, 'shopper-mit', model))
      expect(result.resultCode).toBe('Authorised')
      expect(result.action).toBeUndefined()
      expect(await feed()).toContain(`${result.pspReference} authorised`)
    }
  })

  it('refuses on file the test card whose issuer declines charges without the shopper', async () => {
    const id = await save(refusedOnFile, 'shopper-declined')
    const result = await fixture.client.createPayment(fixture.storeId, absent(id, 'shopper-declined'))
    expect(result).toMatchObject({ resultCode: 'Refused', refusalReason: 'Transaction Not Permitted' })
    expect(result.action).toBeUndefined()
    expect(await feed()).toContain(`${result.pspReference} refused`)
    const jwe = await encryptSecurityCode({ securityCode: '737', brand: 'visa' }, certificate)
    expect((await fixture.client.createPayment(fixture.storeId, present(id, 'shopper-declined', jwe))).resultCode).toBe('Authorised')
  })

  it('refuses a code JWE and browser data, naming the field', async () => {
    const id = await save(visa, 'shopper-nojwe')
    const jwe = await encryptSecurityCode({ securityCode: '737', brand: 'visa' }, certificate)
    const browserInfo = {
      userAgent: 'UA',
      acceptHeader: '*/*',
      language: 'en',
      colorDepth: 24 as const,
      screenHeight: 800,
      screenWidth: 1200,
      timeZoneOffset: 0,
      javaEnabled: false,
      javaScriptEnabled: true,
    }
    const before = await feed()
    const withCode = { ...absent(id, 'shopper-nojwe'), paymentMethod: toSavedCardPaymentMethod(id, jwe) }
    const withBrowser = { ...absent(id, 'shopper-nojwe'), browserInfo }
    for (const [request, field] of [
      [withCode, 'paymentMethod.jwe'],
      [withBrowser, 'browserInfo'],
    ] as const) {
      const error = await serviceError(fixture.client.createPayment(fixture.storeId, request))
      expect(error).toMatchObject({ status: 422, code: 'INVALID_REQUEST' })
      expect(error.message).toContain(`${field} (not without the shopper`)
    }
    expect(await feed()).toEqual(before)
  })
})

describe('a card that is not this shopper’s', () => {
  it('refuses another shopper’s, an unknown and a removed card alike, charging nothing', async () => {
    const mine = await save(visa, 'shopper-owner')
    const removed = await save(amex, 'shopper-owner')
    await fixture.client.unsubscribe(fixture.storeId, { shopperReference: 'shopper-owner', storedPaymentMethodId: removed })
    expect((await fixture.client.savedCards(fixture.storeId, 'shopper-owner')).map((c) => c.id)).toEqual([mine])
    const before = await feed()
    const jwe = await encryptSecurityCode({ securityCode: '737', brand: 'visa' }, certificate)
    const answers = []
    for (const request of [
      present(mine, 'shopper-thief', jwe),
      absent(mine, 'shopper-thief'),
      present('pm_unknown0000000', 'shopper-owner', jwe),
      absent(removed, 'shopper-owner'),
      present(removed, 'shopper-owner', await encryptSecurityCode({ securityCode: '7373', brand: 'amex' }, certificate)),
    ]) {
      const error = await serviceError(fixture.client.createPayment(fixture.storeId, request))
      answers.push({ status: error.status, code: error.code, message: error.message })
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1)
    expect(answers[0]).toEqual({
      status: 422,
      code: 'STORED_PAYMENT_METHOD_UNKNOWN',
      message: 'paymentMethod.storedPaymentMethodId: no saved card of this shopperReference',
    })
    expect(await feed()).toEqual(before)
  })
})

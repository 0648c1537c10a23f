import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CompactEncrypt, importX509 } from 'jose'
import { createTestCertificate, findTestCard, SERVICE_MESSAGES } from '@card-jwe/testkit'
import { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import { serviceError } from './support/service-error.js'
import { CHALLENGE_ANSWER } from '@card-jwe/sandbox'
import { registeredShop, RETURN_URL, type RegisteredShop } from './support/sandbox-fixture.js'
import { actionField, answerChallenge, decideOnBankPage, decodeToken, runThreeDSMethod } from './support/browser-steps.js'

let fixture: RegisteredShop
beforeAll(async () => {
  fixture = await registeredShop()
})
afterAll(() => fixture.close())

const plainVisa = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })

describe('card payments', () => {
  it('authorises an ordinary test card with a unique pspReference, echoing metadata', async () => {
    const first = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(plainVisa))
    const second = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(plainVisa))
    expect(first).toMatchObject({
      resultCode: 'Authorised',
      pspReference: expect.stringMatching(/^[0-9A-Z]{16}$/),
      amount: { currency: 'EUR', value: 2800 },
      metadata: { shop_order_id: expect.any(Number) },
    })
    expect(first.action).toBeUndefined()
    expect(second.pspReference).not.toBe(first.pspReference)
  })

  it('refuses the decline test cards with a reason', async () => {
    const decline = findTestCard({ outcome: 'refused', brand: 'mastercard' })
    const result = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(decline))
    expect(result).toMatchObject({ resultCode: 'Refused', refusalReason: 'Not enough balance', pspReference: expect.any(String) })
  })

  it('answers the service’s three card messages', async () => {
    const other = await importCertificate((await createTestCertificate()).certificatePem)
    const wrongCertificate = await fixture.cardPayment(plainVisa, { paymentMethod: toPaymentMethod(await encryptCard(plainVisa, other)) })
    expect(await serviceError(fixture.client.createPayment(fixture.storeId, wrongCertificate))).toMatchObject({
      status: 422,
      code: 'CARD_DATA_UNDECRYPTABLE',
      message: SERVICE_MESSAGES.UNDECRYPTABLE,
    })

    // Payloads card-jwe would never write, encrypted with jose directly to the sandbox's certificate.
    const key = await importX509(fixture.sandbox.certificatePem, 'RSA-OAEP-256')
    const jweOf = async (payload: object) =>
      toPaymentMethod(
        await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
          .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' })
          .encrypt(key),
      )
    const card = { number: plainVisa.number, expiryMonth: plainVisa.expiryMonth, expiryYear: plainVisa.expiryYear, cvc: '737' }
    const stale = await fixture.cardPayment(plainVisa, {
      paymentMethod: await jweOf({ ...card, generationtime: new Date(Date.now() - 25 * 3_600_000).toISOString() }),
    })
    expect(await serviceError(fixture.client.createPayment(fixture.storeId, stale))).toMatchObject({
      code: 'CARD_DATA_NO_LONGER_VALID',
      message: SERVICE_MESSAGES.NO_LONGER_VALID,
    })
    const unpadded = await fixture.cardPayment(plainVisa, {
      paymentMethod: await jweOf({ ...card, expiryMonth: '3', generationtime: new Date().toISOString() }),
    })
    expect(await serviceError(fixture.client.createPayment(fixture.storeId, unpadded))).toMatchObject({
      code: 'CARD_DETAILS_INVALID',
      message: SERVICE_MESSAGES.INVALID_CARD_DETAILS,
    })
    // Not a line of the sandbox's log carries the card number.
    expect(fixture.logs.join('\n')).not.toContain(plainVisa.number.slice(0, 6))
  })

  it('refuses malformed payment requests with the field and rule, never the value', async () => {
    const request = await fixture.cardPayment(plainVisa)
    const error = await serviceError(
      fixture.client.createPayment(fixture.storeId, { ...request, amount: { currency: 'EUR', value: 28.5 } }),
    )
    expect(error).toMatchObject({ status: 422, code: 'INVALID_REQUEST' })
    expect(error.message).toContain('amount.value (type:int)')
    const raw = { ...request, paymentMethod: { type: 'scheme', number: plainVisa.number } } as never
    const rawError = await serviceError(fixture.client.createPayment(fixture.storeId, raw))
    expect(rawError.message).not.toContain(plainVisa.number.slice(0, 6))
    expect((await serviceError(fixture.client.createPayment('store_other', request))).status).toBe(404)
  })
})

describe('3-D Secure 2 over HTTP', () => {
  it('frictionless: fingerprint, then Authorised', async () => {
    const card = findTestCard({ threeDSecure: 'frictionless' })
    const first = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(card))
    expect(first).toMatchObject({
      resultCode: 'IdentifyShopper',
      action: { type: 'threeDS2', subtype: 'fingerprint', paymentMethodType: 'scheme' },
    })
    expect(decodeToken(actionField(first, 'token'))).toEqual({
      threeDSMethodNotificationURL: `${fixture.sandbox.baseUrl}/threeds/method-notification`,
      threeDSMethodUrl: `${fixture.sandbox.baseUrl}/threeds/method`,
      threeDSServerTransID: expect.stringMatching(/^[0-9a-f-]{36}$/),
    })
    const threeDSResult = await runThreeDSMethod(actionField(first, 'token'))
    const final = await fixture.client.paymentDetails(fixture.storeId, { details: { threeDSResult } })
    expect(final).toMatchObject({
      resultCode: 'Authorised',
      pspReference: first.pspReference,
      amount: { currency: 'EUR', value: 2800 },
      metadata: first.metadata,
    })
  })

  it.each([
    [CHALLENGE_ANSWER, 'Authorised'],
    ['wrong answer', 'Refused'],
  ])('challenge answered "%s": %s', async (answer, resultCode) => {
    const card = findTestCard({ brand: 'visa', threeDSecure: 'challenge' })
    const first = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(card))
    const second = await fixture.client.paymentDetails(fixture.storeId, {
      details: { threeDSResult: await runThreeDSMethod(actionField(first, 'token')) },
    })
    expect(second).toMatchObject({ resultCode: 'ChallengeShopper', action: { type: 'threeDS2', subtype: 'challenge' } })
    const token = decodeToken(actionField(second, 'token'))
    expect(token).toMatchObject({
      acsURL: `${fixture.sandbox.baseUrl}/threeds/acs`,
      messageVersion: '2.2.0',
      acsTransID: expect.any(String),
      threeDSServerTransID: expect.any(String),
    })

    // Details sent before the shopper answered are refused.
    const early = Buffer.from(JSON.stringify({ transStatus: 'Y', threeDSServerTransID: token.threeDSServerTransID })).toString('base64')
    expect((await serviceError(fixture.client.paymentDetails(fixture.storeId, { details: { threeDSResult: early } }))).code).toBe(
      'CHALLENGE_NOT_COMPLETED',
    )

    const { threeDSResult, page } = await answerChallenge(actionField(second, 'token'), answer)
    expect(page).toContain('Sandbox bank')
    expect(page).not.toContain(card.number.slice(0, 12))
    const final = await fixture.client.paymentDetails(fixture.storeId, { details: { threeDSResult } })
    expect(final.resultCode).toBe(resultCode)
    expect(final.pspReference).toBe(first.pspReference)
    if (resultCode === 'Refused') expect(final.refusalReason).toBe('3D Not Authenticated')
    expect((await serviceError(fixture.client.paymentDetails(fixture.storeId, { details: { threeDSResult } }))).code).toBe(
      'PAYMENT_ALREADY_FINAL',
    )
  })

  it('does not trust a transStatus the page makes up', async () => {
    const card = findTestCard({ brand: 'mastercard', threeDSecure: 'challenge' })
    const first = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(card))
    const second = await fixture.client.paymentDetails(fixture.storeId, {
      details: { threeDSResult: await runThreeDSMethod(actionField(first, 'token')) },
    })
    const { threeDSResult } = await answerChallenge(actionField(second, 'token'), 'wrong')
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(threeDSResult, 'base64').toString()), transStatus: 'Y' }),
    ).toString('base64')
    expect((await fixture.client.paymentDetails(fixture.storeId, { details: { threeDSResult: forged } })).resultCode).toBe('Refused')
  })
})

describe('redirect method (iDEAL)', () => {
  it.each([
    ['approve', 'Authorised'],
    ['cancel', 'Cancelled'],
  ] as const)('shopper chooses %s: %s', async (decision, resultCode) => {
    const request = { ...(await fixture.cardPayment(plainVisa)), paymentMethod: { type: 'ideal' } }
    const first = await fixture.client.createPayment(fixture.storeId, request)
    expect(first).toMatchObject({
      resultCode: 'RedirectShopper',
      action: { type: 'redirect', method: 'GET', paymentMethodType: 'ideal', url: expect.stringContaining('/redirect/') },
    })
    const redirectResult = await decideOnBankPage(actionField(first, 'url'), decision)
    const final = await fixture.client.paymentDetails(fixture.storeId, { details: { redirectResult } })
    expect(final).toMatchObject({ resultCode, pspReference: first.pspReference })
    expect(RETURN_URL).toContain('shop.example')
  })
})

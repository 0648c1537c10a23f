/**
 * As lenient and as strict as the service: what a shop's backend met, black-box, where
 * the sandbox differed from the spec and docs/service-signing.md. Each case failed before its fix.
 */
import { createHmac } from 'node:crypto'
import { CompactEncrypt, importX509 } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient, SIGNATURE_HEADERS, type ServiceClient } from '@card-jwe/service-client'
import { sha256Hex } from '@card-jwe/service-client/signing'
import { findTestCard } from '@card-jwe/testkit'
import { SERVICE_MESSAGES } from '@card-jwe/testkit/decryptor'
import { toPaymentMethod } from 'card-jwe'
import type { ServicePaymentRequest } from '@card-jwe/payment-validator'
import { registeredShop, type RegisteredShop } from './support/sandbox-fixture.js'
import { serviceError } from './support/service-error.js'
import { startTestShop } from './support/shop-server.js'

const card = findTestCard({ brand: 'mastercard', threeDSecure: 'none', outcome: 'authorised' })
let fixture: RegisteredShop
let client: ServiceClient
beforeAll(async () => {
  fixture = await registeredShop()
  client = fixture.client
})
afterAll(() => fixture.close())

describe('signature timestamp', () => {
  /** Signs by the docs alone, with Node's HMAC: the timestamp text goes into the message as sent. */
  async function signedByTheDocs(timestampText: string): Promise<number> {
    const path = '/shopplatform/processor/updated-payments'
    const nonce = `n0nce-${Math.random().toString(36).slice(2, 14).padEnd(12, '0')}`
    const message = ['v1', timestampText, nonce, 'GET', path, await sha256Hex('')].join('\n')
    const signature = `v1=${createHmac('sha256', fixture.credentials.serviceSecret).update(message).digest('hex')}`
    const response = await fetch(fixture.sandbox.baseUrl + path, {
      headers: {
        [SIGNATURE_HEADERS.shop]: fixture.credentials.shopId,
        [SIGNATURE_HEADERS.timestamp]: timestampText,
        [SIGNATURE_HEADERS.nonce]: nonce,
        [SIGNATURE_HEADERS.signature]: signature,
      },
    })
    await response.body?.cancel()
    return response.status
  }

  it('is verified as the text that was sent, leading zero and all', async () => {
    const seconds = String(Math.floor(Date.now() / 1000))
    expect(await signedByTheDocs(seconds)).toBe(200)
    expect(await signedByTheDocs(`0${seconds}`)).toBe(200)
    expect(await signedByTheDocs(`00${seconds}`)).toBe(200)
  })
})

describe('state.data forwarded as is (spec: Front-end contract 3)', () => {
  /** A Drop-in's card state.data with the shop's own fields added, as a migrating shop would send it. */
  async function dropInBody(
    paymentMethodExtra: Record<string, unknown> = {},
    extra: Record<string, unknown> = {},
  ): Promise<ServicePaymentRequest> {
    const body = await fixture.cardPayment(card)
    return {
      ...body,
      paymentMethod: { ...body.paymentMethod, brand: 'mc', checkoutAttemptId: 'do-not-track', ...paymentMethodExtra },
      riskData: { clientData: 'eyJ2ZXJzaW9uIjoiMS4wLjAifQ==' },
      clientStateDataIndicator: true,
      origin: 'https://shop.example',
      order: { pspReference: 'ORDER0000000001', orderData: 'Ab02b4c0!BQABAgA' },
      shopperLocale: 'nl-NL',
      ...extra,
    } as ServicePaymentRequest
  }

  it('passes through riskData, clientStateDataIndicator, origin, order, and brand and checkoutAttemptId in paymentMethod', async () => {
    expect(await client.createPayment(fixture.storeId, await dropInBody())).toMatchObject({
      resultCode: 'Authorised',
      pspReference: expect.any(String),
    })
  })

  it('passes the rest of state.data through on payment-details too', async () => {
    const challenge = findTestCard({ brand: 'visa', threeDSecure: 'frictionless' })
    const started = await client.createPayment(fixture.storeId, await fixture.cardPayment(challenge))
    const token = (started.action as unknown as { token: string }).token
    const { threeDSServerTransID } = JSON.parse(Buffer.from(token, 'base64').toString()) as { threeDSServerTransID: string }
    const threeDSResult = Buffer.from(JSON.stringify({ threeDSServerTransID, transStatus: 'Y' })).toString('base64')
    const details = {
      details: { threeDSResult },
      sessionData: 'from-the-drop-in',
      authenticationData: { threeDSRequestData: { nativeThreeDS: 'preferred' } },
    }
    expect(await client.paymentDetails(fixture.storeId, details as never)).toMatchObject({ resultCode: 'Authorised' })
  })

  it('stays strict where the spec is: the JWE, the amount, ids, and never raw card data', async () => {
    const cases: Array<[string, ServicePaymentRequest, string]> = [
      ['a raw number beside the JWE', await dropInBody({ number: card.number }), 'paymentMethod.number (raw card data is never accepted)'],
      ['a raw code at the top', await dropInBody({}, { cvc: '737' }), 'cvc'],
      [
        'a JWE that is not compact',
        await dropInBody({ jwe: 'not-a-jwe' }),
        'paymentMethod.jwe (a compact JWE: five base64url parts joined by dots)',
      ],
      ['an amount in major units', await dropInBody({}, { amount: { currency: 'EUR', value: 28.5 } }), 'amount.value'],
      ['an unknown currency', await dropInBody({}, { amount: { currency: 'EURO', value: 2800 } }), 'amount.currency'],
      ['an origin that is not a URL', await dropInBody({}, { origin: 'shop' }), 'origin'],
      ['an order without pspReference', await dropInBody({}, { order: { orderData: 'x' } }), 'order.pspReference'],
    ]
    for (const [what, body, field] of cases) {
      const error = await serviceError(client.createPayment(fixture.storeId, body))
      expect(error, what).toMatchObject({ status: 422, code: 'INVALID_REQUEST' })
      expect(error.message, what).toContain(field)
      expect(error.message, what).not.toContain(card.number.slice(0, 6))
    }
  })
})

describe('updated-payments cursor', () => {
  it('refuses a cursor it never issued to this shop, and takes every one it did', async () => {
    await client.createPayment(fixture.storeId, await fixture.cardPayment(card))
    const first = await client.updatedPayments({ after: 0, limit: 1 })
    expect(first.payments).toHaveLength(1)
    await expect(client.updatedPayments({ after: first.cursor })).resolves.toMatchObject({ payments: expect.any(Array) })
    for (const after of [1_000_000, first.cursor + 1_000]) {
      expect(await serviceError(client.updatedPayments({ after }))).toMatchObject({ status: 422, code: 'CURSOR_UNKNOWN' })
    }
  })

  it('refuses another shop’s cursor on the same service', async () => {
    const shop = await startTestShop()
    try {
      const { shopId, storeId } = await createServiceClient({ baseUrl: fixture.sandbox.baseUrl }).register({
        shopUrl: shop.url,
        key: shop.key,
        secret: shop.secret,
        readyMadeStore: true,
      })
      const other = createServiceClient({
        baseUrl: fixture.sandbox.baseUrl,
        credentials: { shopId, serviceSecret: shop.settings.get('service_secret')! },
      })
      await other.createPayment(storeId!, await fixture.cardPayment(card))
      const { cursor } = await other.updatedPayments()
      expect((await client.updatedPayments()).payments.map((p) => p.sequence)).not.toContain(cursor)
      expect(await serviceError(client.updatedPayments({ after: cursor }))).toMatchObject({ code: 'CURSOR_UNKNOWN' })
    } finally {
      await shop.close()
    }
  })
})

describe('registration', () => {
  it('refuses a key with ":" at registration, naming the rule, before calling the shop', async () => {
    const shop = await startTestShop()
    try {
      const key = `${shop.key.slice(0, 8)}:${shop.key.slice(8)}`
      const error = await serviceError(
        createServiceClient({ baseUrl: fixture.sandbox.baseUrl }).register({ shopUrl: shop.url, key, secret: shop.secret }),
      )
      expect(error).toMatchObject({ status: 422, code: 'INVALID_REQUEST' })
      expect(error.message).toContain('key (no ":"')
      expect(error.message).not.toContain(key)
      expect(shop.calls).toEqual([])
    } finally {
      await shop.close()
    }
  })
})

describe('amounts and currencies (docs/decisions.md)', () => {
  it('takes only the store’s currency', async () => {
    const usd = await fixture.cardPayment(card, { amount: { currency: 'USD', value: 2800 } })
    expect(await serviceError(client.createPayment(fixture.storeId, usd))).toMatchObject({
      status: 422,
      code: 'CURRENCY_NOT_SUPPORTED',
      message: 'amount.currency: this store takes EUR only',
    })
  })

  it('authorises 0 only to verify and store a card', async () => {
    const zero = { currency: 'EUR', value: 0 }
    const plain = await fixture.cardPayment(card, { amount: zero })
    expect(await serviceError(client.createPayment(fixture.storeId, plain))).toMatchObject({ code: 'AMOUNT_ZERO_NOT_ALLOWED' })
    const ideal = await fixture.cardPayment(card, {
      amount: zero,
      paymentMethod: { type: 'ideal' },
      storePaymentMethod: true,
      shopperReference: 'shopper-zero',
    })
    expect(await serviceError(client.createPayment(fixture.storeId, ideal))).toMatchObject({ code: 'AMOUNT_ZERO_NOT_ALLOWED' })

    const verification = await fixture.cardPayment(card, { amount: zero, storePaymentMethod: true, shopperReference: 'shopper-zero' })
    const verified = await client.createPayment(fixture.storeId, verification)
    expect(verified).toMatchObject({ resultCode: 'Authorised', amount: zero })
    const methods = await client.checkoutPaymentMethods(fixture.storeId, { country: 'NL', currency: 'EUR', shopper: 'shopper-zero' })
    expect(methods.storedPaymentMethods).toEqual([expect.objectContaining({ brand: 'mastercard', lastFour: card.number.slice(-4) })])
    // Nothing to capture on a verification.
    expect(await serviceError(client.capture(verified.pspReference!, { currency: 'EUR', value: 1 }))).toMatchObject({
      code: 'CAPTURE_EXCEEDS_AUTHORISED',
    })
  })
})

describe('generationtime', () => {
  async function withGenerationTime(generationtime: string) {
    const key = await importX509(fixture.sandbox.certificatePem, 'RSA-OAEP-256')
    const payload = {
      number: card.number,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      cvc: card.securityCode,
      generationtime,
    }
    const jwe = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' })
      .encrypt(key)
    return client.createPayment(fixture.storeId, await fixture.cardPayment(card, { paymentMethod: toPaymentMethod(jwe) }))
  }
  const seconds = () => new Date().toISOString().slice(0, 19)

  it('accepts UTC written as Z or as +00:00, with or without fractions', async () => {
    for (const written of [`${seconds()}Z`, `${seconds()}+00:00`, `${seconds()}.123+00:00`, `${seconds()}.123456+00:00`]) {
      expect(await withGenerationTime(written), written).toMatchObject({ resultCode: 'Authorised' })
    }
  })

  it('keeps refusing any other offset', async () => {
    for (const written of [`${seconds()}+01:00`, `${seconds()}-00:00`, `${seconds()}-05:00`, seconds()]) {
      expect(await serviceError(withGenerationTime(written)), written).toMatchObject({
        code: 'CARD_DETAILS_INVALID',
        message: SERVICE_MESSAGES.INVALID_CARD_DETAILS,
      })
    }
  })
})

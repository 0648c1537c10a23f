/** Oversized, malformed and mistyped bodies: a 4xx with a clear message, never a 500, never card data. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signRequest } from '@card-jwe/service-client'
import { findTestCard } from '@card-jwe/testkit'
import { registeredShop, type RegisteredShop } from './support/sandbox-fixture.js'

let fixture: RegisteredShop
beforeAll(async () => {
  fixture = await registeredShop()
})
afterAll(() => fixture.close())

const card = findTestCard({ brand: 'visa', threeDSecure: 'none' })

async function send(body: string | Uint8Array<ArrayBuffer>, contentType = 'application/json') {
  const pathWithQuery = `/shopplatform/processor/stores/${fixture.storeId}/payments`
  const headers = await signRequest(fixture.credentials, { method: 'POST', pathWithQuery, body })
  const response = await fetch(fixture.sandbox.baseUrl + pathWithQuery, {
    method: 'POST',
    headers: { ...headers, 'content-type': contentType },
    body,
  })
  return { status: response.status, text: await response.text() }
}

describe('request bodies', () => {
  it.each([
    ['larger than 64 KiB', `{"x":"${'a'.repeat(70_000)}"}`, 'application/json', 413, 'BODY_TOO_LARGE'],
    ['not JSON, with a card number in it', `{"number": ${card.number},`, 'application/json', 400, 'INVALID_JSON'],
    ['not declared as JSON', JSON.stringify({ channel: 'web' }), 'text/plain', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['deeply nested', '['.repeat(50_000) + ']'.repeat(50_000), 'application/json', 413, 'BODY_TOO_LARGE'],
    ['nested but small', '['.repeat(20_000) + ']'.repeat(20_000), 'application/json', 422, 'INVALID_REQUEST'],
    [
      'raw card fields',
      JSON.stringify({
        channel: 'web',
        returnUrl: 'https://shop.example/r',
        amount: { currency: 'EUR', value: 1 },
        paymentMethod: { type: 'scheme', number: card.number, cvc: '737' },
      }),
      'application/json',
      422,
      'INVALID_REQUEST',
    ],
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), 'application/json', 400, 'INVALID_JSON'],
  ] as const)('refuses a body %s', async (_, body, contentType, status, errorCode) => {
    const answer = await send(body, contentType)
    expect(answer.status).toBe(status)
    expect(JSON.parse(answer.text)).toMatchObject({ status, errorCode })
    expect(answer.text).not.toContain(card.number.slice(0, 6))
  })

  it('never logs a body', () => {
    expect(fixture.logs.join('\n')).not.toContain(card.number.slice(0, 6))
    expect(fixture.logs.some((l) => l.includes(' 500 '))).toBe(false)
  })
})

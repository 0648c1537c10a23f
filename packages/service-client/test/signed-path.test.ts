/**
 * What a signature covers, checked against the request as a server reads it off the wire: the
 * path with query exactly as the request line carries it, a base URL's own path included.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createServiceClient, SIGNATURE_HEADERS } from '../src/index.js'
import { signatureOf } from '../src/signing.js'
import { misbehavingServer, reply, type MisbehavingServer, type Received } from './support/misbehaving-server.js'
import { authorised, credentials, fastClient, payment, STORE } from './support/fixtures.js'

let server: MisbehavingServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** Whether the request's signature is the one its own request line, headers and body call for. */
async function signedAsSent(request: Received): Promise<boolean> {
  const expected = await signatureOf(credentials.serviceSecret, {
    timestamp: request.headers[SIGNATURE_HEADERS.timestamp]!,
    nonce: request.headers[SIGNATURE_HEADERS.nonce]!,
    method: request.method,
    pathWithQuery: request.path,
    body: request.body,
  })
  return request.headers[SIGNATURE_HEADERS.signature] === expected
}

describe('the signed path', () => {
  it.each([
    ['at the root', ''],
    ['under a path (a gateway’s prefix)', '/gateway/v1'],
    ['under a path with a trailing slash', '/gateway/v1/'],
  ])('a base URL %s: the signature covers the request line as sent', async (_, prefix) => {
    server = await misbehavingServer((request) =>
      request.method === 'GET' ? reply.json(200, { payments: [], cursor: 5, hasMore: false }) : reply.json(200, authorised),
    )
    const { client } = fastClient(server.url + prefix)
    await client.createPayment(STORE, payment, { idempotencyKey: 'key-of-the-signed-path' })
    await client.updatedPayments({ after: 4 })
    const [post, get] = server.received
    expect(post?.path).toBe(`${prefix.replace(/\/$/, '')}/shopplatform/processor/stores/${STORE}/payments`)
    expect(await signedAsSent(post!)).toBe(true)
    expect(get?.path).toMatch(/\?/)
    expect(await signedAsSent(get!)).toBe(true)
  })

  it.each([
    ['a query', 'https://service.example/api?x=1'],
    ['a fragment', 'https://service.example/api#x'],
    ['a user', 'https://user:pass@service.example/api'],
    ['an empty query', 'https://service.example/api?'],
    ['an empty fragment', 'https://service.example/api#'],
  ])('a base URL with %s: TypeError naming the option, as no path after it could be signed', (_, baseUrl) => {
    expect(() => createServiceClient({ baseUrl, credentials })).toThrow(
      new TypeError('baseUrl: an origin and at most a path, without query, fragment or user'),
    )
  })
})

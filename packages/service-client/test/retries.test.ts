/**
 * Retries against a real loopback server that misbehaves: what is retried (no answer, 429, 502,
 * 503, 504), what is not (every other status, 500 included, and malformed answers), the waits, and
 * the same idempotency key on every attempt of a call.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { IDEMPOTENCY_KEY_PATTERN, ServiceError, ServiceUnreachableError } from '../src/index.js'
import { closedPort, misbehavingServer, reply, type MisbehavingServer } from './support/misbehaving-server.js'
import { authorised, CARD_MARKER, fastClient, payment, PSP, rejection, STORE } from './support/fixtures.js'

let server: MisbehavingServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** Every request carried one key, and it is the one the call reports. */
function expectOneKey(keys: (string | undefined)[], expected?: string) {
  expect(new Set(keys).size).toBe(1)
  expect(keys[0]).toMatch(IDEMPOTENCY_KEY_PATTERN)
  if (expected !== undefined) expect(keys[0]).toBe(expected)
}

/** No message, no property of the error quotes the request body. */
function expectNoBody(error: Error) {
  const text = `${String(error)} ${JSON.stringify(error)} ${error.stack ?? ''} ${String((error as { cause?: unknown }).cause ?? '')}`
  expect(text).not.toContain(CARD_MARKER)
  expect(text).not.toContain('REF-IN-BODY-7')
}

describe('retried: no answer', () => {
  it('a reset connection is retried under the same generated key until an attempt gets through', async () => {
    server = await misbehavingServer((_, i) => (i < 2 ? reply.reset() : reply.json(200, authorised)))
    const { client, waits } = fastClient(server.url)
    expect(await client.createPayment(STORE, payment)).toMatchObject(authorised)
    expect(server.received).toHaveLength(3)
    expectOneKey(server.keys())
    expect(waits).toEqual([20, 40])
  })

  it("a reset connection is retried under the caller's key", async () => {
    server = await misbehavingServer((_, i) => (i < 1 ? reply.reset() : reply.json(200, authorised)))
    const { client, waits } = fastClient(server.url)
    await client.createPayment(STORE, payment, { idempotencyKey: 'order-42-attempt-0' })
    expectOneKey(server.keys(), 'order-42-attempt-0')
    expect(server.received).toHaveLength(2)
    expect(waits).toEqual([20])
  })

  it('resets to the end: ServiceUnreachableError SERVICE_UNREACHABLE with the attempts and the key', async () => {
    server = await misbehavingServer(() => reply.reset())
    const { client, waits } = fastClient(server.url, { deadlineMs: 300 })
    const error = await rejection(client.createPayment(STORE, payment, { idempotencyKey: 'order-42-attempt-0' }))
    expect(error).toBeInstanceOf(ServiceUnreachableError)
    expect(error).toMatchObject({
      name: 'ServiceUnreachableError',
      code: 'SERVICE_UNREACHABLE',
      idempotencyKey: 'order-42-attempt-0',
      attempts: server.received.length,
    })
    expect(server.received.length).toBeGreaterThanOrEqual(3)
    expect(waits).toEqual([20, 40, 80, 80, 80].slice(0, server.received.length - 1))
    expectOneKey(server.keys(), 'order-42-attempt-0')
    expectNoBody(error)
  })

  it('a refused connection (nothing listening) is retried with growing waits, then SERVICE_UNREACHABLE', async () => {
    const { client, waits } = fastClient(await closedPort(), { deadlineMs: 300 })
    const error = await rejection(client.capture(PSP, { currency: 'EUR', value: 100 }))
    expect(error).toMatchObject({ code: 'SERVICE_UNREACHABLE', endpoint: 'POST /shopplatform/processor/payments/{psp_reference}/captures' })
    const { attempts, idempotencyKey } = error as ServiceUnreachableError
    expect(attempts).toBe(waits.length + 1)
    expect(attempts).toBeGreaterThanOrEqual(3)
    expect(waits).toEqual([20, 40, 80, 80, 80].slice(0, attempts - 1))
    expect(idempotencyKey).toMatch(IDEMPOTENCY_KEY_PATTERN)
  })

  it('a hung service: each attempt ends at its timeout, the call at its deadline, SERVICE_TIMEOUT', async () => {
    server = await misbehavingServer(() => reply.hang())
    const { client, waits } = fastClient(server.url, { attemptTimeoutMs: 200, deadlineMs: 800, backoff: { initialMs: 50, maxMs: 400 } })
    const started = performance.now()
    const error = await rejection(client.createPayment(STORE, payment))
    const took = performance.now() - started
    // 200 ms, wait 50, 200 ms, wait 100, 200 ms; the next wait (200) would pass the deadline.
    expect(error).toMatchObject({ code: 'SERVICE_TIMEOUT', attempts: 3 })
    expect(server.received).toHaveLength(3)
    expect(waits).toEqual([50, 100])
    expectOneKey(server.keys(), (error as ServiceUnreachableError).idempotencyKey)
    expect(took).toBeLessThan(800 + 2_000)
    expectNoBody(error)
  })

  it('a body that stalls after the headers is a timeout, and is retried under the same key', async () => {
    server = await misbehavingServer((_, i) => (i === 0 ? reply.stalledBody() : reply.json(200, authorised)))
    const { client, waits } = fastClient(server.url, { attemptTimeoutMs: 200 })
    expect(await client.paymentDetails(STORE, { details: { redirectResult: 'x' } })).toMatchObject(authorised)
    expect(server.received).toHaveLength(2)
    expectOneKey(server.keys())
    expect(waits).toEqual([20])
  })

  it.each([
    ['timed out', reply.hang()],
    ['whose body stalled', reply.stalledBody()],
    ['reset', reply.reset()],
    ['answered 504 by a gateway', reply.refusal(504, 'GATEWAY_TIMEOUT')],
  ])('409 after an attempt %s is that attempt still running: retried under the key until its answer', async (_, first) => {
    server = await misbehavingServer((_, i) =>
      i === 0 ? first : i < 3 ? reply.refusal(409, 'IDEMPOTENCY_KEY_IN_USE') : reply.json(200, authorised),
    )
    const { client, waits } = fastClient(server.url, { attemptTimeoutMs: 200 })
    expect(await client.createPayment(STORE, payment, { idempotencyKey: 'order-42-attempt-0' })).toMatchObject(authorised)
    expect(server.received).toHaveLength(4)
    expectOneKey(server.keys(), 'order-42-attempt-0')
    expect(waits).toEqual([20, 40, 80])
  })

  it('bodies that always stall: SERVICE_TIMEOUT', async () => {
    server = await misbehavingServer(() => reply.stalledBody())
    const { client } = fastClient(server.url, { attemptTimeoutMs: 100, deadlineMs: 250 })
    expect(await rejection(client.createPayment(STORE, payment))).toMatchObject({
      name: 'ServiceUnreachableError',
      code: 'SERVICE_TIMEOUT',
    })
  })

  it('a fetch that ignores its abort signal still ends at the deadline', async () => {
    server = await misbehavingServer(() => reply.json(200, authorised))
    const frozen = () => new Promise<Response>(() => {})
    const { client } = fastClient(server.url, { fetch: frozen, attemptTimeoutMs: 100, deadlineMs: 250 })
    expect(await rejection(client.createPayment(STORE, payment))).toMatchObject({ code: 'SERVICE_TIMEOUT', attempts: 2 })
  })
})

describe('retried: 429, 502, 503, 504', () => {
  it.each([429, 502, 503, 504])('%i is retried under the same key with the backoff', async (status) => {
    server = await misbehavingServer((_, i) => (i < 2 ? reply.refusal(status, 'NOT_NOW') : reply.json(200, authorised)))
    const { client, waits } = fastClient(server.url)
    expect(await client.createPayment(STORE, payment)).toMatchObject(authorised)
    expect(server.received).toHaveLength(3)
    expectOneKey(server.keys())
    expect(waits).toEqual([20, 40])
  })

  it('503 with Retry-After in seconds: waits what the service asked for', async () => {
    server = await misbehavingServer((_, i) => (i === 0 ? reply.refusal(503, 'BUSY', { 'retry-after': '1' }) : reply.json(200, authorised)))
    const { client, waits } = fastClient(server.url)
    await client.createPayment(STORE, payment)
    expect(waits).toEqual([1_000])
    expectOneKey(server.keys())
  })

  it('503 with Retry-After as an HTTP-date: waits until then', async () => {
    const at = new Date(Date.now() + 1_500).toUTCString()
    server = await misbehavingServer((_, i) => (i === 0 ? reply.refusal(503, 'BUSY', { 'retry-after': at }) : reply.json(200, authorised)))
    const { client, waits } = fastClient(server.url)
    await client.createPayment(STORE, payment)
    expect(waits).toHaveLength(1)
    // An HTTP-date has whole seconds: between 0.5 and 1.5 s from now.
    expect(waits[0]).toBeGreaterThan(0)
    expect(waits[0]).toBeLessThanOrEqual(1_500)
  })

  it('a Retry-After past the deadline ends the call at once with the service refusal', async () => {
    server = await misbehavingServer(() => reply.refusal(429, 'RATE_LIMITED', { 'retry-after': '60' }))
    const { client, waits } = fastClient(server.url)
    const error = await rejection(client.sendVerificationEmail('merchant@example.test'))
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', attempts: 1 })
    expect(waits).toEqual([])
  })

  it('503 to the end: ServiceError 503 with the attempts and the key, to repeat later under it', async () => {
    server = await misbehavingServer(() => reply.refusal(503, 'UNAVAILABLE'))
    const { client, waits } = fastClient(server.url, { deadlineMs: 300 })
    const error = await rejection(client.refund(PSP, { currency: 'EUR', value: 100 }, { idempotencyKey: 'refund-42-click-1' }))
    expect(error).toMatchObject({
      name: 'ServiceError',
      status: 503,
      code: 'UNAVAILABLE',
      idempotencyKey: 'refund-42-click-1',
      attempts: server.received.length,
    })
    expect(waits).toEqual([20, 40, 80, 80, 80].slice(0, server.received.length - 1))
    expectOneKey(server.keys(), 'refund-42-click-1')
  })

  it('a GET is retried the same way, and carries no key', async () => {
    const page = { payments: [], cursor: 0, hasMore: false }
    server = await misbehavingServer((_, i) =>
      i === 0 ? reply.reset() : i === 1 ? reply.refusal(502, 'BAD_GATEWAY') : reply.json(200, page),
    )
    const { client, waits } = fastClient(server.url)
    expect(await client.updatedPayments({ after: 0 })).toEqual({ ...page, unreadable: [] })
    expect(server.received.map((r) => r.method)).toEqual(['GET', 'GET', 'GET'])
    expect(server.keys()).toEqual([undefined, undefined, undefined])
    expect(waits).toEqual([20, 40])
  })
})

describe('not retried', () => {
  it('500 is the service failing on this request: one attempt, ServiceError 500 (only 429, 502, 503, 504 mean "not now")', async () => {
    server = await misbehavingServer((_, i) => (i === 0 ? reply.refusal(500, 'INTERNAL') : reply.json(200, authorised)))
    const { client, waits } = fastClient(server.url)
    const error = await rejection(client.createPayment(STORE, payment))
    expect(error).toMatchObject({ name: 'ServiceError', status: 500, code: 'INTERNAL', attempts: 1 })
    expect(server.received).toHaveLength(1)
    expect(waits).toEqual([])
  })

  it.each([400, 401, 404, 409, 422])('a %i refusal: one attempt, ServiceError with status, code and the key', async (status) => {
    server = await misbehavingServer(() => reply.refusal(status, 'REFUSED_HERE'))
    const { client } = fastClient(server.url)
    const error = await rejection(client.createPayment(STORE, payment, { idempotencyKey: 'order-42-attempt-0' }))
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({
      status,
      code: 'REFUSED_HERE',
      errorType: 'validation',
      attempts: 1,
      idempotencyKey: 'order-42-attempt-0',
    })
    expect(server.received).toHaveLength(1)
    expectNoBody(error)
  })

  it('a refusal whose message echoes a card number: the error carries it masked, and no more than 300 characters', async () => {
    const echoed = `Invalid card number 4111 1111 4555 1142 (4111-1111-4555-1142, 4111111145551142) ${'x'.repeat(400)}`
    server = await misbehavingServer(() =>
      reply.json(422, { status: 422, errorCode: 'CARD_DETAILS_INVALID', message: echoed, errorType: 'validation' }),
    )
    // A fixed key: a generated UUID may hold digit runs of its own, which would read as a leak here.
    const error = await rejection(fastClient(server.url).client.createPayment(STORE, payment, { idempotencyKey: 'order-42-attempt-0' }))
    expect(error).toMatchObject({ status: 422, code: 'CARD_DETAILS_INVALID' })
    expect(error.message.startsWith('Invalid card number [digits] ([digits], [digits]) xxx')).toBe(true)
    expect(error.message.length).toBeLessThanOrEqual(301)
    expect(`${String(error)} ${JSON.stringify(error)} ${error.stack}`).not.toMatch(/\d{4}[ -]?\d{4}/)
  })

  it('a refusal whose code or type echoes a value: HTTP_ERROR and unknown, so neither reaches logs or metrics', async () => {
    server = await misbehavingServer(() =>
      reply.json(422, { status: 422, errorCode: '4111111145551142', message: 'refused', errorType: 'cvc 737' }),
    )
    const error = await rejection(fastClient(server.url).client.createPayment(STORE, payment, { idempotencyKey: 'order-42-attempt-0' }))
    expect(error).toMatchObject({ status: 422, code: 'HTTP_ERROR', errorType: 'unknown' })
    expect(`${String(error)} ${JSON.stringify(error)}`).not.toMatch(/4111|737/)
  })

  it('an error without the service envelope: HTTP_ERROR, naming the endpoint and not the ids', async () => {
    server = await misbehavingServer(() => reply.json(418, '<html>teapot</html>'))
    const { client } = fastClient(server.url)
    const error = await rejection(client.cancel(PSP))
    expect(error).toMatchObject({
      status: 418,
      code: 'HTTP_ERROR',
      message: 'POST /shopplatform/processor/payments/{psp_reference}/cancels: HTTP 418',
    })
  })

  it('a 200 that is not JSON: ServiceError INVALID_RESPONSE, one attempt', async () => {
    server = await misbehavingServer(() => reply.json(200, '{"resultCode": "Authorised"'))
    const { client } = fastClient(server.url)
    const error = await rejection(client.createPayment(STORE, payment))
    expect(error).toMatchObject({ name: 'ServiceError', status: 200, code: 'INVALID_RESPONSE', errorType: 'client', attempts: 1 })
    expect(error.message).toBe('POST /shopplatform/processor/stores/{store_id}/payments: the answer is not JSON')
    expect(server.received).toHaveLength(1)
    expectNoBody(error)
  })

  it('a 200 that breaks the schema: ServiceError INVALID_RESPONSE', async () => {
    server = await misbehavingServer(() => reply.json(200, { resultCode: 42, echoed: CARD_MARKER }))
    const { client } = fastClient(server.url)
    const error = await rejection(client.createPayment(STORE, payment))
    expect(error).toMatchObject({
      code: 'INVALID_RESPONSE',
      message: 'POST /shopplatform/processor/stores/{store_id}/payments: the answer does not match its schema',
    })
    expectNoBody(error)
  })

  it('registration: one attempt, since the service calls the shop before it answers', async () => {
    server = await misbehavingServer(() => reply.refusal(502, 'SHOP_UNREACHABLE'))
    const { client, waits } = fastClient(server.url)
    const error = await rejection(client.register({ shopUrl: 'https://shop.example', key: 'k'.repeat(16), secret: 's'.repeat(16) }))
    expect(error).toMatchObject({ status: 502, code: 'SHOP_UNREACHABLE', attempts: 1 })
    expect(waits).toEqual([])
    expect(server.received[0]?.headers['x-signature']).toBeUndefined()
  })
})

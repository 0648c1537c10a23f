/** A wrong argument is a TypeError, thrown before any request reaches the service, and never retried. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient } from '../src/index.js'
import { misbehavingServer, reply, type MisbehavingServer } from './support/misbehaving-server.js'
import { credentials, fastClient, payment, PSP, rejection, STORE } from './support/fixtures.js'

let server: MisbehavingServer
beforeAll(async () => {
  server = await misbehavingServer(() => reply.json(200, { resultCode: 'Authorised' }))
})
afterAll(() => server.close())

describe('misuse', () => {
  it.each([
    [
      'a store id with a slash',
      'storeId: 1 to 64 characters of [A-Za-z0-9_-]',
      () => fastClient(server.url).client.createPayment('store/../x', payment),
    ],
    ['an empty store id', 'storeId: 1 to 64 characters of [A-Za-z0-9_-]', () => fastClient(server.url).client.checkoutPaymentMethods('')],
    [
      'a pspReference with a space',
      'pspReference: 1 to 64 characters of [A-Za-z0-9_-]',
      () => fastClient(server.url).client.capture('PSP 1', { currency: 'EUR', value: 1 }),
    ],
    [
      'a key with a space',
      'idempotencyKey: 8 to 64 characters of [A-Za-z0-9_-]',
      () => fastClient(server.url).client.cancel(PSP, { idempotencyKey: 'bad key!' }),
    ],
    [
      'a key too short',
      'idempotencyKey: 8 to 64 characters of [A-Za-z0-9_-]',
      () => fastClient(server.url).client.createPayment(STORE, payment, { idempotencyKey: 'short' }),
    ],
    [
      'a key too long',
      'idempotencyKey: 8 to 64 characters of [A-Za-z0-9_-]',
      () => fastClient(server.url).client.paymentDetails(STORE, { details: {} }, { idempotencyKey: 'k'.repeat(65) }),
    ],
    [
      'a signed call without credentials',
      'credentials: this call is signed; create the client with credentials (shopId, serviceSecret)',
      () => createServiceClient({ baseUrl: server.url }).listStores(),
    ],
    [
      'a shopper reference too short for saved cards',
      'shopperReference: 3-256 characters',
      () => fastClient(server.url).client.savedCards(STORE, 'ab'),
    ],
    [
      'a deadline of zero',
      'deadlineMs: a positive number of milliseconds',
      () => fastClient(server.url).client.createPayment(STORE, payment, { deadlineMs: 0 }),
    ],
    [
      'a body that is not JSON',
      'Do not know how to serialize a BigInt',
      () => fastClient(server.url).client.createPayment(STORE, { ...payment, amount: { currency: 'EUR', value: 1n as unknown as number } }),
    ],
  ])('%s: TypeError, and nothing is sent', async (_, message, call) => {
    const before = server.received.length
    const error = await rejection(call())
    expect(error).toBeInstanceOf(TypeError)
    if (!message.includes('BigInt')) expect(error.message).toBe(message)
    expect(server.received).toHaveLength(before)
  })

  it.each([
    ['baseUrl not a URL', { baseUrl: 'service.example' }, 'baseUrl: an absolute http or https URL'],
    ['baseUrl not http', { baseUrl: 'ftp://service.example' }, 'baseUrl: an absolute http or https URL'],
    [
      'a shopId with a line break',
      { credentials: { ...credentials, shopId: 'shop\r\nx-evil: 1' } },
      'credentials.shopId: 1 to 128 visible ASCII characters',
    ],
    ['an empty secret', { credentials: { ...credentials, serviceSecret: '' } }, 'credentials.serviceSecret: a non-empty string'],
    ['a negative attempt timeout', { attemptTimeoutMs: -1 }, 'attemptTimeoutMs: a positive number of milliseconds'],
  ])('creating a client with %s: TypeError naming the option', (_, options, message) => {
    expect(() => createServiceClient(options)).toThrow(new TypeError(message))
  })
})

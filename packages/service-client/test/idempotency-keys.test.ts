/**
 * Idempotency keys as the server sees them: on every call but a GET, the caller's or one generated
 * per call, the same on each retry of that call.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { ENDPOINTS, IDEMPOTENCY_KEY_PATTERN, type ServiceClient } from '../src/index.js'
import { misbehavingServer, reply, type MisbehavingServer } from './support/misbehaving-server.js'
import { authorised, fastClient, payment, PSP, rejection, STORE } from './support/fixtures.js'

let server: MisbehavingServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const amount = { currency: 'EUR', value: 100 }
const address = { country: 'NL', city: 'Amsterdam', stateOrProvince: '', line1: 'Damrak 1', line2: '', line3: '', postalCode: '1012 LG' }

/** Every call but a GET, with valid arguments and a key; the name is the endpoint's. */
const writes: ReadonlyArray<
  readonly [keyof typeof ENDPOINTS, (client: ServiceClient, o: { idempotencyKey?: string }) => Promise<unknown>]
> = [
  ['register', (c, o) => c.register({ shopUrl: 'https://shop.example', key: 'k'.repeat(16), secret: 's'.repeat(16) }, o)],
  ['sendVerificationEmail', (c, o) => c.sendVerificationEmail('merchant@example.test', o)],
  ['connectBackofficeUser', (c, o) => c.connectBackofficeUser({ email: 'merchant@example.test', code: '123456' }, o)],
  ['connectContractor', (c, o) => c.connectContractor('8f4f0c3e-2a8e-4d5c-9f0a-1b2c3d4e5f60', o)],
  [
    'createStore',
    (c, o) =>
      c.createStore(
        {
          contractor: { type: 'organization', name: 'Test BV', owner: { firstName: 'A', lastName: 'B' }, country: 'NL' },
          store: { label: 'Shop', shopperStatement: 'TEST SHOP', industryCode: '5999', phone: '+31 20 123 4567', currency: 'EUR', address },
        },
        o,
      ),
  ],
  ['updateStore', (c, o) => c.updateStore(STORE, { label: 'Shop 2' }, o)],
  ['setStorePaymentMethods', (c, o) => c.setStorePaymentMethods(STORE, { paymentMethods: [{ type: 'ideal', enabled: false }] }, o)],
  ['createOnboardingLink', (c, o) => c.createOnboardingLink(o)],
  ['createPayment', (c, o) => c.createPayment(STORE, payment, o)],
  ['paymentDetails', (c, o) => c.paymentDetails(STORE, { details: { redirectResult: 'x' } }, o)],
  ['capture', (c, o) => c.capture(PSP, amount, o)],
  ['refund', (c, o) => c.refund(PSP, amount, o)],
  ['cancel', (c, o) => c.cancel(PSP, o)],
  ['subjectErasure', (c, o) => c.subjectErasure(PSP, o)],
  ['unsubscribe', (c, o) => c.unsubscribe(STORE, { shopperReference: 'shopper-1', storedPaymentMethodId: 'spm_1' }, o)],
]

/** The path a template takes with the fixtures' ids. */
const pathOf = (template: string) => template.replace('{store_id}', STORE).replace('{psp_reference}', PSP)

describe('idempotency keys', () => {
  it('the writes are every endpoint but the GETs', () => {
    const notGet = Object.entries(ENDPOINTS)
      .filter(([, e]) => e.method !== 'GET')
      .map(([name]) => name)
    expect(writes.map(([name]) => name).sort()).toEqual(notGet.sort())
  })

  it.each(writes)("%s sends the caller's key, the same after a reset, at the table's method and path", async (name, send) => {
    server = await misbehavingServer((_, i) => (i === 0 ? reply.reset() : reply.refusal(422, 'STOP_HERE')))
    const { client } = fastClient(server.url)
    const key = `key-of-${name}`.slice(0, 64)
    // register is one attempt (see the endpoint table); every other write is retried.
    const attempts = name === 'register' ? 1 : 2
    const error = await rejection(send(client, { idempotencyKey: key }))
    expect(error).toMatchObject(name === 'register' ? { code: 'SERVICE_UNREACHABLE' } : { code: 'STOP_HERE', attempts: 2 })
    expect(server.keys()).toEqual(Array(attempts).fill(key))
    expect(server.received.map((r) => `${r.method} ${r.path}`)).toEqual(
      Array(attempts).fill(`${ENDPOINTS[name].method} ${pathOf(ENDPOINTS[name].path)}`),
    )
  })

  it.each(writes)('%s without a key sends one it generated', async (_, send) => {
    server = await misbehavingServer(() => reply.refusal(422, 'STOP_HERE'))
    const { client } = fastClient(server.url)
    await rejection(send(client, {}))
    expect(server.keys()[0]).toMatch(IDEMPOTENCY_KEY_PATTERN)
  })

  it('two calls without a key: two keys, one per call, each kept across its own retries', async () => {
    server = await misbehavingServer((request) =>
      server!.received.filter((r) => r.headers['idempotency-key'] === request.headers['idempotency-key']).length === 1
        ? reply.reset()
        : reply.json(200, authorised),
    )
    const { client } = fastClient(server.url)
    await client.createPayment(STORE, payment)
    await client.createPayment(STORE, payment)
    const keys = server.keys()
    expect(keys).toHaveLength(4)
    expect(keys[0]).toBe(keys[1])
    expect(keys[2]).toBe(keys[3])
    expect(keys[0]).not.toBe(keys[2])
  })

  it('two concurrent payments for one order under one key: the server sees that key on both', async () => {
    server = await misbehavingServer(() => reply.json(200, authorised))
    const { client } = fastClient(server.url)
    const key = 'order-42-attempt-0'
    await Promise.all([
      client.createPayment(STORE, payment, { idempotencyKey: key }),
      client.createPayment(STORE, payment, { idempotencyKey: key }),
    ])
    expect(server.keys()).toEqual([key, key])
  })

  it('each attempt is signed afresh: a new nonce, the same key and body', async () => {
    server = await misbehavingServer((_, i) => (i < 2 ? reply.reset() : reply.json(200, authorised)))
    const { client } = fastClient(server.url)
    await client.createPayment(STORE, payment)
    const nonces = server.received.map((r) => r.headers['x-signature-nonce'])
    expect(new Set(nonces).size).toBe(3)
    expect(new Set(server.received.map((r) => r.body)).size).toBe(1)
    expect(new Set(server.keys()).size).toBe(1)
  })

  it('a capture or refund sends its amount in one key order and nothing else, so two calls under one key are the same bytes', async () => {
    server = await misbehavingServer(() => reply.refusal(422, 'STOP_HERE'))
    const { client } = fastClient(server.url)
    const valueFirst = { value: 100, currency: 'EUR', note: 'from the shop' } as unknown as typeof amount
    for (const call of [(a: typeof amount) => client.capture(PSP, a), (a: typeof amount) => client.refund(PSP, a)]) {
      await rejection(call(amount))
      await rejection(call(valueFirst))
    }
    expect(server.received.map((r) => r.body)).toEqual(Array(4).fill('{"amount":{"currency":"EUR","value":100}}'))
  })

  it.each([
    ['listContractors', (c: ServiceClient) => c.listContractors()],
    ['updatedPayments', (c: ServiceClient) => c.updatedPayments({ after: 3 })],
    ['checkoutPaymentMethods', (c: ServiceClient) => c.checkoutPaymentMethods(STORE, { country: 'NL' })],
    ['clientKey', (c: ServiceClient) => c.clientKey(STORE)],
  ] as const)('GET %s carries no key', async (_, read) => {
    server = await misbehavingServer(() => reply.refusal(422, 'STOP_HERE'))
    const { client } = fastClient(server.url)
    await rejection(read(client))
    expect(server.received[0]?.method).toBe('GET')
    expect(server.keys()).toEqual([undefined])
  })
})

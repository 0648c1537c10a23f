/** The back end as a shop on Node, Deno or Bun runs it: the runtime's own server, PostgreSQL, the sandbox beside it. */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { type EncryptionCertificate, encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import { connectServiceClient, createShopBackend, type OrderChange, type ShopBackend, type ShopOrder } from '../../src/index.js'
import { mountShopBackend } from '../../src/hono/index.js'
import { loadOrCreateSecretKey } from '../../src/node/index.js'
import { openPostgresStore, type PostgresStore } from '../../src/postgres/index.js'
import { serverRuntime } from '../../../../test/support/runtime.js'
import { approveAtBank } from '../support/bank-page.js'
import { freshDatabase, postgres } from '../support/postgres.js'
import { startSandboxProcess, type SandboxProcess } from '../support/sandbox-process.js'
import { serveHere, serveHonoHere, type Served } from '../support/serve-here.js'

const RUNTIME = serverRuntime()

describe.skipIf(postgres.missing)(`the back end on ${RUNTIME}'s own server`, () => {
  const orders = new Map<string, ShopOrder>()
  const changes: OrderChange[] = []
  /** The shopper's address each payment request carried, by its reference: what 3-D Secure is sent. */
  const shopperIPs = new Map<string, string | undefined>()
  let sandbox: SandboxProcess | undefined
  let keyFolder: string | undefined
  let database: Awaited<ReturnType<typeof freshDatabase>> | undefined
  let store: PostgresStore | undefined
  let served: Served | undefined
  let backend: ShopBackend
  let certificate: EncryptionCertificate

  beforeAll(async () => {
    sandbox = await startSandboxProcess()
    certificate = await importCertificate(sandbox.certificatePem)
    keyFolder = await mkdtemp(join(tmpdir(), 'shop-backend-runtime-key-'))
    database = await freshDatabase('runtime')
    store = await openPostgresStore({ connectionString: database.url, max: 4 })
    served = await serveHere(() => backend)
    const client = connectServiceClient({ baseUrl: sandbox.baseUrl })
    backend = createShopBackend({
      store,
      ...client,
      // The real client, its payment requests noted on their way.
      service: (credentials) => {
        const port = client.service(credentials)
        return {
          ...port,
          createPayment: (storeId, body, call) => {
            shopperIPs.set(String(body.reference), body.shopperIP)
            return port.createPayment(storeId, body, call)
          },
        }
      },
      secretKey: await loadOrCreateSecretKey(join(keyFolder, 'secrets', 'payments.key')),
      findOrder: (id) => orders.get(id),
      onOrderChange: (change) => void changes.push(change),
      shopUrl: served.url,
      certificatePem: sandbox.certificatePem,
    })
    // The service calls the shop's own endpoints back, on this runtime's server.
    await backend.register({ readyMadeStore: true })
  })
  afterEach((context) => {
    if (context.task.result?.state === 'fail') console.log(`the sandbox's log:\n${sandbox?.output()}`)
  })
  // Each step whatever the others did: a sandbox or a database left behind outlives the run.
  afterAll(async () => {
    const steps = [
      () => backend?.poller.stop(),
      () => served?.close(),
      () => store?.close(),
      () => database?.drop(),
      () => sandbox?.close(),
      () => (keyFolder === undefined ? undefined : rm(keyFolder, { recursive: true, force: true })),
    ]
    const failures: unknown[] = []
    for (const step of steps)
      await Promise.resolve()
        .then(step)
        .catch((error: unknown) => failures.push(error))
    if (failures.length > 0) throw new AggregateError(failures, 'closing what the test started')
  })

  let orderNumber = 0
  function newOrder(): ShopOrder & { id: string } {
    const id = `${RUNTIME}-${++orderNumber}`
    const order = { id, reference: `runtime-order-${id}`, amount: { currency: 'EUR', value: 2800 } }
    orders.set(id, order)
    return order
  }
  /** What the page sends, over real HTTP from the shop's own origin. */
  async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${served!.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', origin: served!.url },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  /** Every payment the sandbox holds for an order reference, whatever its outcome (its own read-only list). */
  async function paymentsAtSandbox(reference: string): Promise<number> {
    const query = new URLSearchParams({ reference })
    return ((await (await fetch(`${sandbox!.baseUrl}/sandbox/payments?${query}`)).json()) as { count: number }).count
  }
  async function cardSubmission(order: ShopOrder): Promise<Record<string, unknown>> {
    const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
    const jwe = await encryptCard(card, certificate)
    return { orderId: order.id, reference: order.reference, amount: order.amount, paymentMethod: toPaymentMethod(jwe) }
  }

  it('runs in the runtime this run asked for', () => {
    // scripts/run-tests.mjs names it: a run whose workers fell back to Node would prove nothing of Deno or Bun.
    expect(RUNTIME).toBe(process.env.CARD_JWE_RUNTIME ?? 'node')
  })

  it('registers, then takes a card payment; a double submit gets the same answer and pays once', async () => {
    const order = newOrder()
    expect(await post('/api/payments', await cardSubmission(order))).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(await paymentsAtSandbox(order.reference)).toBe(1)

    const twice = newOrder()
    const submission = await cardSubmission(twice)
    const [first, second] = await Promise.all([post('/api/payments', submission), post('/api/payments', submission)])
    expect(first).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(second).toEqual(first)
    expect(await paymentsAtSandbox(twice.reference)).toBe(1)
    const attempts = await store!.listAttempts(twice.id)
    expect(attempts).toHaveLength(1)
    expect(attempts[0]).toMatchObject({ state: 'authorised', pspReference: expect.any(String) })
    expect(changes.filter((c) => c.state === 'authorised').map((c) => c.orderId)).toEqual([order.id, twice.id])
  })

  it("mounted on Hono on this runtime's own server, sends the shopper's address with a card payment, no ip option given", async () => {
    const app = new Hono()
    mountShopBackend(app, backend)
    const hono = await serveHonoHere(app.fetch)
    try {
      const order = newOrder()
      const browserInfo = {
        userAgent: 'Mozilla/5.0',
        acceptHeader: 'text/html',
        language: 'en-GB',
        colorDepth: 24,
        screenHeight: 800,
        screenWidth: 1280,
        timeZoneOffset: 0,
        javaEnabled: false,
      }
      const response = await fetch(`${hono.url}/api/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', origin: served!.url },
        body: JSON.stringify({ ...(await cardSubmission(order)), browserInfo }),
      })
      expect({ status: response.status, body: await response.json() }).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
      expect(shopperIPs.get(order.reference)).toBe('127.0.0.1')
    } finally {
      await hono.close()
    }
  })

  it('takes an iDEAL payment through the bank page and its details', async () => {
    const order = newOrder()
    const started = await post('/api/payments', {
      orderId: order.id,
      reference: order.reference,
      amount: order.amount,
      paymentMethod: { type: 'ideal' },
    })
    expect(started).toMatchObject({ status: 200, body: { resultCode: 'RedirectShopper', action: { type: 'redirect' } } })
    const redirectResult = await approveAtBank((started.body.action as { url: string }).url)
    expect(await post('/api/payment-details', { orderId: order.id, details: { redirectResult } })).toEqual({
      status: 200,
      body: { resultCode: 'Authorised' },
    })
    expect(changes.at(-1)).toMatchObject({ orderId: order.id, state: 'authorised' })
    expect(await paymentsAtSandbox(order.reference)).toBe(1)
  })
})

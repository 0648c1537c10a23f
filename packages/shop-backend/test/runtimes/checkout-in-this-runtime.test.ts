/**
 * The back end as a shop on Deno, Bun or Node runs it: the runtime's own HTTP server in front of
 * `backend.fetch`, the PostgreSQL store, the secret key in a file, the sandbox in a process of its own. Run in all three
 * (scripts/run-tests.mjs); the README's "any runtime that speaks Request/Response" rests on it.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import { connectServiceClient, createShopBackend, type OrderChange, type ShopBackend, type ShopOrder } from '../../src/index.js'
import { loadOrCreateSecretKey } from '../../src/node/index.js'
import { openPostgresStore, type PostgresStore } from '../../src/postgres/index.js'
import { approveAtBank } from '../support/bank-page.js'
import { freshDatabase, postgres } from '../support/postgres.js'
import { startSandboxProcess, type SandboxProcess } from '../support/sandbox-process.js'
import { RUNTIME, serveHere, type Served } from '../support/serve-here.js'

describe.skipIf(postgres.missing)(`the back end on ${RUNTIME}'s own server`, () => {
  const orders = new Map<string, ShopOrder>()
  const changes: OrderChange[] = []
  let sandbox: SandboxProcess
  let database: Awaited<ReturnType<typeof freshDatabase>>
  let store: PostgresStore
  let backend: ShopBackend
  let served: Served
  let keyFolder: string

  beforeAll(async () => {
    sandbox = await startSandboxProcess()
    keyFolder = await mkdtemp(join(tmpdir(), 'shop-backend-runtime-key-'))
    database = await freshDatabase('runtime')
    store = await openPostgresStore({ connectionString: database.url, max: 4 })
    served = await serveHere(() => backend)
    backend = createShopBackend({
      store,
      ...connectServiceClient({ baseUrl: sandbox.baseUrl }),
      secretKey: await loadOrCreateSecretKey(join(keyFolder, 'secrets', 'payments.key')),
      findOrder: (id) => orders.get(id),
      onOrderChange: (change) => void changes.push(change),
      shopUrl: served.url,
      certificatePem: sandbox.certificatePem,
    })
    // The service calls the shop's own endpoints back, on this runtime's server.
    await backend.register({ readyMadeStore: true })
  })
  afterAll(async () => {
    await backend?.poller.stop()
    await served?.close()
    await store?.close()
    await database?.drop()
    await sandbox?.close()
    if (keyFolder) await rm(keyFolder, { recursive: true, force: true })
  })

  let orderNumber = 0
  function newOrder(): ShopOrder {
    const id = `${RUNTIME}-${++orderNumber}`
    const order = { id, reference: `runtime-order-${id}`, amount: { currency: 'EUR', value: 2800 } }
    orders.set(id, order)
    return order
  }
  /** What the page sends, over real HTTP from the shop's own origin. */
  async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${served.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', origin: served.url },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  /** The payments the sandbox holds for an order reference, with this result code (its own read-only list). */
  async function paidAtSandbox(reference: string, resultCode = 'Authorised'): Promise<number> {
    const query = new URLSearchParams({ reference, resultCode })
    return ((await (await fetch(`${sandbox.baseUrl}/sandbox/payments?${query}`)).json()) as { count: number }).count
  }
  async function cardSubmission(order: ShopOrder): Promise<Record<string, unknown>> {
    const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
    const jwe = await encryptCard(card, await importCertificate(sandbox.certificatePem))
    return { orderId: order.id, reference: order.reference, amount: order.amount, paymentMethod: toPaymentMethod(jwe) }
  }

  it('registers, then takes a card payment; a double submit gets the same answer and pays once', async () => {
    const order = newOrder()
    expect(await post('/api/payments', await cardSubmission(order))).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(await paidAtSandbox(order.reference)).toBe(1)

    const twice = newOrder()
    const submission = await cardSubmission(twice)
    const [first, second] = await Promise.all([post('/api/payments', submission), post('/api/payments', submission)])
    expect(first).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(second).toEqual(first)
    const attempts = await store.listAttempts(String(twice.id))
    expect(attempts).toHaveLength(1)
    expect(attempts[0]).toMatchObject({ state: 'authorised', pspReference: expect.any(String) })
    expect(await paidAtSandbox(twice.reference)).toBe(1)
    expect(changes.filter((c) => c.state === 'authorised').map((c) => c.orderId)).toEqual([order.id, twice.id])
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
    expect(await paidAtSandbox(order.reference)).toBe(1)
  })
})

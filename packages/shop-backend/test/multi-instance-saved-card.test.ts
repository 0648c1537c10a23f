/**
 * A charge without the shopper (a renewal through `chargeSavedCard`) taken by two shop instances at
 * once, each a real `node` process (test/multi-instance/shop-instance.mjs on the built package) with
 * a proxy of its own to the sandbox, the ledger shared: one PostgreSQL database, or one SQLite file.
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { generateSecretKey } from '../src/index.js'
import { type InstanceOptions, type InstanceProcess, spawnInstance } from './support/instances.js'
import { type ServiceProxy, startServiceProxy } from './support/service-proxy.js'
import { freshDatabase, postgres } from './support/postgres.js'
import { startWorld, type World } from './support/shop.js'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

type Ledger = Pick<InstanceOptions, 'databaseUrl' | 'sqlitePath'>

/** The two ledgers the instances may share, each made fresh for a test. */
const LEDGERS: Record<'PostgreSQL' | 'SQLite', () => Promise<Ledger>> = {
  PostgreSQL: async () => {
    const database = await freshDatabase('renewals')
    cleanups.push(() => database.drop())
    return { databaseUrl: database.url }
  },
  SQLite: async () => {
    const dir = await mkdtemp(join(tmpdir(), 'renewals-'))
    cleanups.push(() => rm(dir, { recursive: true, force: true }))
    return { sqlitePath: join(dir, 'payments.sqlite') }
  },
}

/** The proxy holds each call back, and a loaded machine must not turn that wait into a timeout: the test is about one charge. */
const PATIENT = { deadlineMs: 15_000, attemptTimeoutMs: 10_000 }

async function startInstance(name: string, world: World, ledger: Ledger, secretKey: string) {
  const proxy = await startServiceProxy(world.sandbox.baseUrl)
  cleanups.push(() => proxy.close())
  const instance = await spawnInstance(name, { ...ledger, serviceUrl: proxy.baseUrl, secretKey, sandbox: world.sandbox, timeouts: PATIENT })
  cleanups.push(() => instance.kill())
  return { ...instance, proxy }
}

/** The subscriber's card saved the way a page saves it (a paid `sub...` order with storePaymentMethod); its id. */
async function savedCard(world: World, instance: InstanceProcess): Promise<string> {
  const certificate = await importCertificate(world.sandbox.certificatePem)
  const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
  const paid = await instance.post('/api/payments', {
    orderId: 'sub-first',
    reference: 'order-sub-first',
    amount: { currency: 'EUR', value: 2800 },
    paymentMethod: toPaymentMethod(await encryptCard(card, certificate)),
    storePaymentMethod: true,
  })
  expect(paid).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
  const { body } = await instance.post('/test/saved-cards', { shopperReference: 'multi-instance-subscriber' })
  const cards = body as unknown as Array<{ id: string; lastFour: string }>
  return cards.find((c) => c.lastFour === card.number.slice(-4))!.id
}

/** Each payment answer held back 400 ms, so the second instance looks at the order while the first one's call is out. */
const heldBack: ServiceProxy['rule'] = (method, path) =>
  method === 'POST' && path.endsWith('/payments') ? { action: 'forward', delayMs: 400 } : { action: 'forward' }

const ledgers = (Object.keys(LEDGERS) as Array<keyof typeof LEDGERS>).filter((l) => l !== 'PostgreSQL' || postgres.missing === undefined)

describe.each(ledgers)('a renewal charged by two instances (real processes) on one %s ledger', (kind) => {
  let world: World
  beforeAll(async () => {
    // The instances run the built package.
    execFileSync('pnpm', ['exec', 'tsc', '-b', 'packages/shop-backend'], { cwd: repo, stdio: 'pipe' })
  }, 120_000)

  it('both take the same order attempt at once: one payment at the sandbox, one key, both answered with it', async () => {
    world = await startWorld()
    cleanups.push(() => world.close())
    const ledger = await LEDGERS[kind]()
    const secretKey = Buffer.from(generateSecretKey()).toString('base64')
    const a = await startInstance('a', world, ledger, secretKey)
    const b = await startInstance('b', world, ledger, secretKey)
    const storedPaymentMethodId = await savedCard(world, a)

    const keysSent = () => new Set([a, b].flatMap((instance) => instance.proxy.keysForwarded('POST', '/payments')))
    const savingKeys = keysSent()
    for (const instance of [a, b]) instance.proxy.rule = heldBack
    const charge = { orderId: 'sub-renewal', storedPaymentMethodId, recurringProcessingModel: 'Subscription' }
    const answers = await Promise.all([a.post('/test/charge-saved-card', charge), b.post('/test/charge-saved-card', charge)])

    expect(answers).toEqual([
      { status: 200, body: { resultCode: 'Authorised' } },
      { status: 200, body: { resultCode: 'Authorised' } },
    ])
    // One key reached the sandbox for the renewal: the attempt's, stored before the call, reused by the other instance.
    expect([...keysSent()].filter((key) => !savingKeys.has(key))).toHaveLength(1)
    expect(world.sandboxRows<{ n: number }>('SELECT COUNT(*) AS n FROM payments WHERE reference = ?', 'order-sub-renewal')[0]!.n).toBe(1)
    expect(world.sandboxPaymentsFor('order-sub-renewal', 'Authorised')).toBe(1)
  })
})

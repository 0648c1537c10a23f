/**
 * The ledger's store out of reach is "not now": 503 `STORE_UNAVAILABLE` with `Retry-After`, a log
 * line naming the failure by its code, nothing half-written. SQLite held busy by another connection
 * (in this process); PostgreSQL stopped under load and started again, under a shop instance that is a
 * real process.
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { generateSecretKey, ShopBackendError } from '../src/index.js'
import { type InstanceProcess, spawnInstance, until } from './support/instances.js'
import { createDatabase, postgresBinDir, type RunningPostgres, startPostgres } from './support/postgres-process.mjs'
import { postgres } from './support/postgres.js'
import { useWorld } from './support/shop.js'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const { world, shop } = useWorld()
const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('SQLite busy past its timeout', () => {
  it('answers 503 STORE_UNAVAILABLE with Retry-After, logs SQLITE_BUSY, sends nothing; the same Pay afterwards pays once', async () => {
    const log: string[] = []
    const testShop = await shop({ log: (line) => log.push(line) })
    testShop.store.database.pragma('busy_timeout = 50')
    const order = testShop.createOrder()
    const submission = await testShop.cardSubmission(order)
    const pay = () =>
      testShop.backend.fetch(
        new Request('http://shop.test/api/payments', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(submission),
        }),
        { ip: '127.0.0.1' },
      )
    const before = world().sandboxPayments(testShop.shopId)
    const other = new Database(testShop.storePath)
    other.prepare('BEGIN IMMEDIATE').run()
    const busy = await pay()
    expect({ status: busy.status, retryAfter: busy.headers.get('retry-after'), body: await busy.json() }).toEqual({
      status: 503,
      retryAfter: '2',
      body: { error: 'STORE_UNAVAILABLE', message: expect.stringContaining('Try again in a moment') },
    })
    expect(log).toContain("POST /api/payments: the ledger's store could not be reached (SQLITE_BUSY)")
    expect(world().sandboxPayments(testShop.shopId)).toBe(before)
    other.prepare('ROLLBACK').run()
    other.close()
    const paid = await pay()
    expect({ status: paid.status, body: await paid.json() }).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(world().sandboxPayments(testShop.shopId)).toBe(before + 1)
  })

  const busyCapture =
    'a capture while the store is busy is ShopBackendError STORE_UNAVAILABLE; the same capture afterwards moves the money once'
  it(busyCapture, async () => {
    const log: string[] = []
    const testShop = await shop({ log: (line) => log.push(line) })
    const order = testShop.createOrder()
    expect(await testShop.post('/api/payments', await testShop.cardSubmission(order))).toMatchObject({ status: 200 })
    testShop.store.database.pragma('busy_timeout = 50')
    const other = new Database(testShop.storePath)
    other.prepare('BEGIN IMMEDIATE').run()
    const refused = await testShop.backend.capture(order.id).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ShopBackendError)
    expect(refused).toMatchObject({ code: 'STORE_UNAVAILABLE' })
    expect(log).toContain("capture: the ledger's store could not be reached (SQLITE_BUSY)")
    other.prepare('ROLLBACK').run()
    other.close()
    const captured = await testShop.backend.capture(order.id)
    expect(captured).toMatchObject({ state: 'received', amount: { currency: 'EUR', value: 2800 } })
    const { psp_reference: psp } = testShop.store.database
      .prepare('SELECT psp_reference FROM attempts WHERE order_id = ?')
      .get(order.id) as { psp_reference: string }
    expect(world().sandboxModifications(psp, 'capture')).toBe(1)
  })
})

describe.skipIf(postgres.missing !== undefined)('PostgreSQL stopped under load and started again', () => {
  beforeAll(() => {
    // The instance runs the built package.
    execFileSync('pnpm', ['exec', 'tsc', '-b', 'packages/shop-backend'], { cwd: repo, stdio: 'pipe' })
  }, 120_000)

  const outage =
    'every payment acknowledged before, during and after is in the ledger once; while down the page gets 503 with Retry-After, never 500'
  it(outage, async () => {
    // Durable, as a production server is: an immediate shutdown keeps every commit it acknowledged.
    const server: RunningPostgres = await startPostgres({ bin: postgresBinDir()!, durable: true })
    cleanups.push(() => server.stop())
    const databaseUrl = await createDatabase(server.adminUrl, 'outage')
    const instance: InstanceProcess = await spawnInstance('outage', {
      databaseUrl,
      serviceUrl: world().sandbox.baseUrl,
      secretKey: Buffer.from(generateSecretKey()).toString('base64'),
      sandbox: world().sandbox,
    })
    cleanups.push(() => instance.kill())
    const certificate = await importCertificate(world().sandbox.certificatePem)
    const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })

    // Four shoppers pay order after order; a 503 is tried again after its Retry-After (here shortened).
    const acknowledged: string[] = []
    const answers = new Map<string, number>()
    const notNow = new Set<string>()
    let loading = true
    let orders = 0
    const shopper = async () => {
      while (loading) {
        const id = `outage${process.pid}x${++orders}`
        const submission = {
          orderId: id,
          reference: `order-${id}`,
          amount: { currency: 'EUR', value: 2800 },
          paymentMethod: toPaymentMethod(await encryptCard(card, certificate)),
        }
        for (let tries = 0; tries < 60; tries++) {
          const answer = await instance.request('/api/payments', submission)
          answers.set(String(answer.status), (answers.get(String(answer.status)) ?? 0) + 1)
          if (answer.status === 200) {
            expect(answer.body).toEqual({ resultCode: 'Authorised' })
            acknowledged.push(id)
            break
          }
          expect(answer.status).toBe(503)
          expect(answer.retryAfter).toBe('2')
          notNow.add(String(answer.body.error))
          await sleep(200)
        }
      }
    }
    const load = Promise.all([shopper(), shopper(), shopper(), shopper()])
    // Payments acknowledged before the stop, however long a busy host takes to the first.
    await until('a payment acknowledged before the stop', () => acknowledged.length > 0)
    const beforeStop = acknowledged.length
    await server.halt('SIGINT')
    await sleep(3_000)
    await server.resume()
    await sleep(2_000)
    loading = false
    await load

    expect(beforeStop).toBeGreaterThan(0)
    expect(answers.get('500')).toBeUndefined()
    expect(notNow.has('STORE_UNAVAILABLE')).toBe(true)
    const logged = instance.stderr()
    expect(logged).toMatch(/the ledger's store could not be reached \((ECONNREFUSED|57P01|connection terminated)\)/)
    expect(logged).not.toMatch(/\(Error\)/)
    // Once each: one authorised attempt in the ledger and one Authorised payment at the sandbox.
    const pg = (await import('pg')).default
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      const { rows } = await client.query("SELECT order_id, COUNT(*)::int AS n FROM attempts WHERE state = 'authorised' GROUP BY order_id")
      const inLedger = new Map(rows.map((r: { order_id: string; n: number }) => [r.order_id, r.n]))
      for (const id of acknowledged) expect(inLedger.get(id), id).toBe(1)
    } finally {
      await client.end()
    }
    for (const id of acknowledged) expect(world().sandboxPaymentsFor(`order-${id}`, 'Authorised'), id).toBe(1)
    console.log(
      `store outage: ${acknowledged.length} payments acknowledged (${beforeStop} before the stop), ` +
        `answers ${JSON.stringify(Object.fromEntries(answers))}, ` +
        `codes while down ${[...notNow].join(', ')}; logged ${[...new Set(logged.match(/could not be reached \([^)]*\)/g))].join(', ')}`,
    )
  }, 60_000)
})

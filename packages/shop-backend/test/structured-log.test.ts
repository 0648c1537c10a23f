import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import Database from 'better-sqlite3'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { openSqliteStore } from '../src/sqlite/index.js'
import type { ShopOrder } from '../src/index.js'
import { useWorld } from './support/shop.js'
import { downWhile } from './support/store-down.js'

const { shop, world } = useWorld()

/** A real pino logger writing JSON lines to a stream the test reads. */
function capturedPino() {
  const entries: Array<Record<string, unknown>> = []
  const raw: string[] = []
  const logger = pino(
    { level: 'debug', base: null },
    {
      write(line: string) {
        raw.push(line)
        entries.push(JSON.parse(line) as Record<string, unknown>)
      },
    },
  )
  return { logger, entries, raw }
}

const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const

describe('the log option as a structured logger (pino) or a function', () => {
  it("gives pino each entry's level and fields: an onOrderChange that threw, the poller's lease, a 500", async () => {
    const { logger, entries } = capturedPino()
    let refuse = true
    const s = await shop({
      log: logger,
      onOrderChange: () => {
        if (refuse) throw Object.assign(new Error('shop database down'), { code: 'SHOP_DB_DOWN' })
      },
    })
    const order = s.createOrder()
    expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toMatchObject({ resultCode: 'Authorised' })
    expect(entries).toContainEqual(
      expect.objectContaining({ level: LEVEL.warn, component: 'outbox', code: 'SHOP_DB_DOWN', orderId: order.id, msg: expect.any(String) }),
    )
    refuse = false

    s.backend.poller.start({ intervalMs: 20, leaseMs: 60_000 })
    for (let i = 0; i < 500 && !entries.some((e) => e.component === 'poller'); i++) await new Promise((r) => setTimeout(r, 10))
    expect(entries).toContainEqual(
      expect.objectContaining({ level: LEVEL.info, component: 'poller', holder: s.backend.poller.holder, polls: true }),
    )
    await s.backend.poller.stop()

    const failing = await shop({
      log: logger,
      findOrder: () => {
        throw new RangeError('order lookup broke')
      },
    })
    expect((await failing.post('/api/payments', { orderId: 'x1' })).status).toBeGreaterThanOrEqual(400)
    const answer = await failing.backend.fetch(
      new Request('http://shop.test/api/payments', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(await s.cardSubmission(s.createOrder())),
      }),
    )
    expect(answer.status).toBe(500)
    expect(entries).toContainEqual(
      expect.objectContaining({ level: LEVEL.error, component: 'http', code: 'RangeError', method: 'POST', path: '/api/payments' }),
    )
  })

  it('says a store out of reach at error level with its code, and never card data across a payment', async () => {
    const { logger, entries, raw } = capturedPino()
    let down = false
    const s = await shop({
      log: logger,
      wrapStore: downWhile(() => down, 'insertAttempt'),
      onOrderChange: () => {
        throw new Error('again later')
      },
    })
    const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
    const submission = await s.cardSubmission(s.createOrder(), card)
    expect((await s.post('/api/payments', submission)).body).toMatchObject({ resultCode: 'Authorised' })
    down = true
    expect((await s.post('/api/payments', await s.cardSubmission(s.createOrder(), card))).status).toBe(503)
    expect(entries).toContainEqual(expect.objectContaining({ level: LEVEL.error, component: 'store', code: 'ECONNREFUSED' }))
    // Pino's own time stamp is left out: its milliseconds can hold a security code's digits by chance.
    const all = raw.map((line) => line.replace(/"time":\d+,/, '')).join('\n')
    const encrypted = String((submission.paymentMethod as Record<string, unknown>).encryptedCard ?? '')
    for (const secret of [
      card.number,
      card.securityCode,
      `${card.expiryMonth}/${card.expiryYear}`,
      encrypted,
      world().sandbox.readyMadeShop.serviceSecret,
    ])
      if (secret) expect(all).not.toContain(secret)
  })

  it('still takes a function: one line per entry, the same words pino gets as its message', async () => {
    const lines: string[] = []
    const { logger, entries } = capturedPino()
    const throwing = () => {
      throw Object.assign(new Error('no'), { code: 'SHOP_DB_DOWN' })
    }
    const a = await shop({ log: (line) => void lines.push(line), onOrderChange: throwing })
    const b = await shop({ log: logger, onOrderChange: throwing })
    for (const s of [a, b]) await s.post('/api/payments', await s.cardSubmission(s.createOrder()))
    const outboxLine = lines.find((line) => line.startsWith('onOrderChange failed'))
    expect(outboxLine).toMatch(/^onOrderChange failed for order \S+ \(SHOP_DB_DOWN\); tried again later$/)
    expect(entries.map((e) => e.msg)).toContainEqual(
      expect.stringMatching(/^onOrderChange failed for order \S+ \(SHOP_DB_DOWN\); tried again later$/),
    )
  })

  it("gives the SQLite store's group-commit failure to pino at error level, by code", async () => {
    const { logger, entries } = capturedPino()
    const dir = await mkdtemp(join(tmpdir(), 'structured-log-'))
    const store = openSqliteStore({ path: join(dir, 'payments.sqlite'), log: logger })
    const other = new Database(join(dir, 'payments.sqlite'))
    try {
      store.database.pragma('busy_timeout = 50')
      other.prepare('BEGIN IMMEDIATE').run()
      await expect(store.putSetting('a', 'secret-1')).rejects.toMatchObject({ code: 'SQLITE_BUSY' })
      expect(entries).toEqual([
        expect.objectContaining({ level: LEVEL.error, component: 'store', msg: expect.stringContaining('(SQLITE_BUSY)') }),
      ])
      expect(JSON.stringify(entries)).not.toContain('secret-1')
    } finally {
      other.close()
      await store.close()
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("refuses any card paid from another origin than its return URL's (where 3-D Secure results go), logged once", async () => {
    const { logger, entries } = capturedPino()
    const s = await shop({ log: logger, shopUrl: 'http://127.0.0.1:3000' })
    // Every call the shop made to the service, whatever its method: a saved card's check reads the shopper's cards.
    const serviceCalls = () => ['GET', 'POST', 'DELETE'].reduce((sum, method) => sum + world().proxy.counted(method, ''), 0)
    const payFrom = async (origin: string | undefined, submission: (order: ShopOrder) => Promise<object> | object) => {
      const order = { ...s.createOrder(), shopperReference: 'shopper-origin-test' }
      s.orders.set(String(order.id), order)
      const [sentBefore, callsBefore] = [world().proxy.counted('POST', '/payments'), serviceCalls()]
      const response = await s.backend.fetch(
        new Request('http://shop.test/api/payments', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(origin && { origin }) },
          body: JSON.stringify(await submission(order)),
        }),
        { ip: '127.0.0.1' },
      )
      const body = (await response.json()) as { error?: string; message?: string }
      const stored = (await s.store.listAttempts(String(order.id))).length
      const sent = world().proxy.counted('POST', '/payments') - sentBefore
      return { status: response.status, body, stored, sent, calls: serviceCalls() - callsBefore }
    }
    const method = (paymentMethod: object) => (order: ShopOrder) => ({
      orderId: order.id,
      reference: order.reference,
      amount: order.amount,
      paymentMethod,
    })
    const mismatches = () => entries.filter((e) => e.code === 'PAGE_ORIGIN_MISMATCH')
    expect(await payFrom('http://127.0.0.1:3000', s.cardSubmission)).toMatchObject({ status: 200, stored: 1, sent: 1 })
    expect(mismatches()).toEqual([])
    const refused = await payFrom('http://localhost:3000', s.cardSubmission)
    expect(refused).toMatchObject({ status: 400, body: { error: 'PAGE_ORIGIN_MISMATCH' }, stored: 0, sent: 0 })
    expect(refused.body.message).toContain('http://127.0.0.1:3000 only')
    expect(await payFrom('http://localhost:3000', s.cardSubmission)).toMatchObject({ status: 400, stored: 0, sent: 0 })
    // A saved card, and encrypted card fields under another type than scheme, open bank frames too: refused before any call.
    const refusedFrom = { status: 400, body: { error: 'PAGE_ORIGIN_MISMATCH' }, stored: 0, sent: 0, calls: 0 }
    expect(await payFrom('http://localhost:3000', method({ type: 'scheme', storedPaymentMethodId: 'pm_unknown1' }))).toMatchObject(
      refusedFrom,
    )
    const fields = { encryptedCardNumber: 'a.b.c.d.e', encryptedExpiryMonth: 'a.b.c.d.e', encryptedExpiryYear: 'a.b.c.d.e' }
    expect(await payFrom('http://localhost:3000', method({ type: 'bcmc', ...fields }))).toMatchObject(refusedFrom)
    // No Origin (a server's own call), or "null" (a page under Referrer-Policy: no-referrer): nothing to compare.
    expect(await payFrom(undefined, s.cardSubmission)).toMatchObject({ status: 200, stored: 1, sent: 1 })
    expect(await payFrom('null', s.cardSubmission)).toMatchObject({ status: 200, stored: 1, sent: 1 })
    // A redirect method leaves the page for the bank and comes back to the return URL: it goes.
    expect(await payFrom('http://localhost:3000', s.idealSubmission)).toMatchObject({ status: 200, stored: 1, sent: 1 })
    expect(mismatches()).toEqual([expect.objectContaining({ level: LEVEL.warn, component: 'http', msg: expect.any(String) })])
    const message = String(mismatches()[0]!.msg)
    expect(message).toContain('http://localhost:3000')
    expect(message).toContain('http://127.0.0.1:3000')
    // A logger of one line gets the code in the line.
    expect(message).toMatch(/^PAGE_ORIGIN_MISMATCH: /)
  })
})

/**
 * Crashes under load: many concurrent checkouts and captures through the demo backend to
 * the sandbox, both real processes on loopback, each killed with SIGKILL at random moments and
 * started again on the same data. Afterwards, read from both databases: every acknowledged payment
 * has its pspReference on its order, no payment or capture exists twice, the poller saw every
 * change exactly once, and no log line holds card digits.
 *
 * Size: at least CRASH_CHECKOUTS checkouts (default 120) by CRASH_CONCURRENCY clients (8), and the
 * load goes on until CRASH_KILLS kills (8) are done; CRASH_SEED (8) fixes the kill schedule.
 */
import Database from 'better-sqlite3'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { freePort } from '../support/free-port.js'
import { managed, type Managed } from './support/processes.js'
import { leaksCardDigits } from '../../packages/card-jwe/test/support/cards.js'

const CHECKOUTS = Number(process.env.CRASH_CHECKOUTS ?? 120)
const CONCURRENCY = Number(process.env.CRASH_CONCURRENCY ?? 8)
const KILLS = Number(process.env.CRASH_KILLS ?? 8)
let seed = Number(process.env.CRASH_SEED ?? 8)
/** A small deterministic generator (mulberry32), so the kill schedule repeats with the seed. */
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let sandbox: Managed | undefined
let shop: Managed | undefined
afterAll(async () => {
  await shop?.stop()
  await sandbox?.stop()
})

it(`keeps every acknowledged payment and applies nothing twice through ${KILLS} SIGKILLs under load`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'card-jwe-crash-'))
  const [sandboxPort, shopPort] = [await freePort(), await freePort()]
  const serviceUrl = `http://127.0.0.1:${sandboxPort}`
  const shopUrl = `http://127.0.0.1:${shopPort}`
  sandbox = managed(
    'apps/sandbox/dist/cli.js',
    { SANDBOX_DATA_DIR: join(dir, 'sandbox'), SANDBOX_PORT: String(sandboxPort) },
    /database .*\n/,
  )
  await sandbox.start()
  const certificatePath = join(dir, 'sandbox', 'certificate.pem')
  shop = managed(
    'apps/demo/dist/server/main.js',
    {
      SERVICE_BASE_URL: serviceUrl,
      CERTIFICATE_PATH: certificatePath,
      DEMO_DATA_DIR: join(dir, 'demo'),
      SHOP_PORT: String(shopPort),
      DEMO_READY_MADE_STORE: '1',
    },
    /shop: +\S+/,
  )
  await shop.start()
  const certificate = await importCertificate(readFileSync(certificatePath, 'utf8'))
  const card = findTestCard({ brand: 'mastercard', threeDSecure: 'none', outcome: 'authorised' })

  /** POST to the shop until it answers one of `done`; connection failures and 5xx are retried. */
  async function post(path: string, body: () => Promise<unknown>, done: number[]): Promise<{ status: number; json: unknown }> {
    for (let tries = 0; ; tries++) {
      if (tries > 400) throw new Error(`${path}: no answer after 400 tries`)
      try {
        const response = await fetch(shopUrl + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(await body()),
          signal: AbortSignal.timeout(15_000),
        })
        if (done.includes(response.status)) return { status: response.status, json: await response.json() }
        await response.body?.cancel()
      } catch {
        // the shop is down or was killed mid-request: try again
      }
      await sleep(100)
    }
  }

  const acknowledged = new Map<number, string>() // order id -> resultCode the "browser" saw
  const unacknowledged: number[] = [] // the payment went through but its answer was lost
  const captures = new Map<number, number>() // order id -> captured value acknowledged
  let next = 0
  let running = true

  async function worker(): Promise<void> {
    while (next < CHECKOUTS || kills < KILLS) {
      const index = next++
      const order = (await post('/api/orders', async () => ({ items: [{ sku: 'tea-sencha', quantity: 1 + (index % 3) }] }), [201]))
        .json as { id: number; reference: string; amount: { currency: string; value: number } }
      // A fresh JWE per try, as a page would encrypt again when the shopper submits again.
      const paid = await post(
        '/api/payments',
        async () => ({
          orderId: order.id,
          reference: order.reference,
          amount: order.amount,
          paymentMethod: toPaymentMethod(await encryptCard(card, certificate)),
        }),
        [200, 409],
      )
      if (paid.status === 409) {
        unacknowledged.push(order.id)
        continue
      }
      acknowledged.set(order.id, (paid.json as { resultCode: string }).resultCode)
      if (index % 2 === 0) {
        const requestId = randomUUID() // one per "click", the same on every retry
        const captured = await post(`/api/admin/orders/${order.id}/capture`, async () => ({ amount: order.amount, requestId }), [200, 409])
        if (captured.status === 200) captures.set(order.id, order.amount.value)
      }
    }
  }

  let kills = 0
  const chaos = (async () => {
    while (running && kills < KILLS) {
      await sleep(200 + random() * 600)
      if (!running) break
      const victim = random() < 0.5 ? sandbox! : shop!
      await victim.kill()
      kills++
      await victim.start()
    }
  })()
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  running = false
  await chaos

  // Let the poller catch up: until a poll applies nothing.
  for (let rounds = 0; rounds < 50; rounds++) {
    const { json } = await post('/api/admin/poll', async () => ({}), [200])
    if ((json as { applied: number }).applied === 0) break
  }
  await shop.stop()
  await sandbox.stop()

  const shopDb = new Database(join(dir, 'demo', 'shop', 'shop.sqlite'), { readonly: true })
  const ledgerDb = new Database(join(dir, 'demo', 'shop', 'payments.sqlite'), { readonly: true })
  const serviceDb = new Database(join(dir, 'sandbox', 'sandbox.sqlite'), { readonly: true })
  try {
    const orders = shopDb.prepare('SELECT id, psp_reference, status, captured FROM orders').all() as Array<{
      id: number
      psp_reference: string | null
      status: string
      captured: number
    }>
    const byId = new Map(orders.map((o) => [o.id, o]))
    const payments = serviceDb
      .prepare("SELECT psp_reference, json_extract(metadata, '$.shop_order_id') AS order_id, captured FROM payments")
      .all() as Array<{ psp_reference: string; order_id: number; captured: number }>
    const paymentsPerOrder = new Map<number, number>()
    for (const p of payments) paymentsPerOrder.set(p.order_id, (paymentsPerOrder.get(p.order_id) ?? 0) + 1)

    // 1. Every acknowledged payment: its pspReference on its order, and that payment at the service.
    const lost = [...acknowledged.keys()].filter((id) => {
      const psp = byId.get(id)?.psp_reference
      return !psp || !payments.some((p) => p.psp_reference === psp && p.order_id === id)
    })
    // 2. No payment stored twice: one payment per order at most (every test card here authorises).
    const duplicated = [...paymentsPerOrder.entries()].filter(([, n]) => n > 1)
    // 3. No capture applied twice: one capture modification per captured payment, amounts as acknowledged.
    const captureRows = serviceDb
      .prepare(
        'SELECT payment_psp_reference AS psp, count(*) AS n, sum(value) AS total FROM modifications ' +
          "WHERE kind = 'capture' GROUP BY payment_psp_reference",
      )
      .all() as Array<{ psp: string; n: number; total: number }>
    const doubleCaptures = captureRows.filter((c) => c.n > 1)
    const lostCaptures = [...captures.entries()].filter(
      ([id, value]) => !captureRows.some((c) => c.psp === byId.get(id)?.psp_reference && c.total === value),
    )
    // 4. The poller saw every change exactly once (the ledger's seen_changes primary key forbids a repeat).
    const events = (serviceDb.prepare('SELECT sequence FROM events ORDER BY sequence').all() as Array<{ sequence: number }>).map(
      (e) => e.sequence,
    )
    const seen = (ledgerDb.prepare('SELECT sequence FROM seen_changes ORDER BY sequence').all() as Array<{ sequence: number }>).map(
      (e) => e.sequence,
    )
    // 5. The poller's view agrees with the service: every captured payment shows captured on its order.
    const staleOrders = [...captures.keys()].filter((id) => byId.get(id)?.captured !== captures.get(id))
    // 6. No card digits in any log line of either process, across all restarts.
    const leaks = [...sandbox.output, ...shop.output].filter((line) => leaksCardDigits(line, card.number))

    const summary = {
      checkouts: next,
      concurrency: CONCURRENCY,
      kills,
      sandboxStarts: sandbox.starts,
      shopStarts: shop.starts,
      acknowledgedPayments: acknowledged.size,
      paymentsWhoseAnswerWasLost: unacknowledged.length,
      paymentsAtService: payments.length,
      acknowledgedCaptures: captures.size,
      captureModifications: captureRows.reduce((n, c) => n + c.n, 0),
      changesAtService: events.length,
      changesSeenByPoller: seen.length,
      lost: lost.length,
      duplicatedPayments: duplicated.length,
      doubleCaptures: doubleCaptures.length,
      lostCaptures: lostCaptures.length,
      staleOrders: staleOrders.length,
      leakedLogLines: leaks.length,
    }
    process.stdout.write(`crash under load: ${JSON.stringify(summary)}\n`)
    expect(kills).toBe(KILLS)
    expect(acknowledged.size + unacknowledged.length).toBe(next)
    expect(next).toBeGreaterThanOrEqual(CHECKOUTS)
    expect(lost).toEqual([])
    expect(duplicated).toEqual([])
    expect(doubleCaptures).toEqual([])
    expect(lostCaptures).toEqual([])
    expect(seen).toEqual(events)
    expect(staleOrders).toEqual([])
    expect(leaks).toEqual([])
    // Orders whose answer was lost still got their payment, once, and the shop recorded it.
    for (const id of unacknowledged) expect(byId.get(id)?.psp_reference).toMatch(/^[0-9A-Z]{16}$/)
  } finally {
    shopDb.close()
    ledgerDb.close()
    serviceDb.close()
  }
})

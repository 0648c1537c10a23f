/**
 * Two shop instances (real `node` processes running test/multi-instance/shop-instance.mjs on the
 * built package) on one PostgreSQL database, against the real sandbox in this process, each
 * through a proxy of its own. Needs the build: beforeAll runs `tsc -b packages/shop-backend`.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { generateSecretKey } from '../src/index.js'
import { type InstanceProcess, spawnInstance, until } from './support/instances.js'
import { type ServiceProxy, startServiceProxy } from './support/service-proxy.js'
import { freshDatabase, postgres, testPool } from './support/postgres.js'
import { startWorld, type World } from './support/shop.js'
import { useThreadPoolHolds } from '../../sqlite-group-commit/test/support/thread-pool.js'
import { gate } from './support/gate.js'

const repo = fileURLToPath(new URL('../../../', import.meta.url))

interface Instance extends InstanceProcess {
  readonly proxy: ServiceProxy
}

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

const holdThreadPool = useThreadPoolHolds()

const onServer = describe.skipIf(postgres.missing !== undefined)

async function setting(world: World) {
  const database = await freshDatabase('instances')
  const pool = testPool(database.url, 2)
  cleanups.push(async () => {
    await pool.end()
    await database.drop()
  })
  return { database, pool, secretKey: Buffer.from(generateSecretKey()).toString('base64'), world }
}

async function startInstance(
  name: string,
  { database, secretKey, world }: Awaited<ReturnType<typeof setting>>,
  poll?: { readonly intervalMs: number; readonly leaseMs: number },
  timeouts: { readonly deadlineMs: number; readonly attemptTimeoutMs: number } = { deadlineMs: 2_000, attemptTimeoutMs: 1_000 },
  rule?: ServiceProxy['rule'],
  repeatWindowMs?: number,
): Promise<Instance> {
  const proxy = await startServiceProxy(world.sandbox.baseUrl)
  if (rule) proxy.rule = rule
  cleanups.push(() => proxy.close())
  const instance = await spawnInstance(name, {
    databaseUrl: database.url,
    serviceUrl: proxy.baseUrl,
    secretKey,
    sandbox: world.sandbox,
    timeouts,
    ...(poll ? { poll } : {}),
    ...(repeatWindowMs === undefined ? {} : { repeatWindowMs }),
  })
  cleanups.push(() => instance.kill())
  return { ...instance, proxy }
}

let orders = 0
const orderId = () => `mi${process.pid}x${Date.now().toString(36)}x${++orders}`

async function cardSubmission(world: World, id: string) {
  const certificate = await importCertificate(world.sandbox.certificatePem)
  const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
  return {
    orderId: id,
    reference: `order-${id}`,
    amount: { currency: 'EUR', value: 2800 },
    paymentMethod: toPaymentMethod(await encryptCard(card, certificate)),
  }
}

/** A card submission whose JWE the service cannot read: its ciphertext damaged, so its tag fails. */
async function unreadableCardSubmission(world: World, id: string) {
  const submission = await cardSubmission(world, id)
  const parts = submission.paymentMethod.jwe.split('.')
  parts[3] = (parts[3]!.startsWith('A') ? 'B' : 'A') + parts[3]!.slice(1)
  return { ...submission, paymentMethod: { ...submission.paymentMethod, jwe: parts.join('.') } }
}

const isPayment = (method: string, path: string) => method === 'POST' && path.endsWith('/payments')
const isCapture = (method: string, path: string) => method === 'POST' && path.endsWith('/captures')
const isFeed = (method: string, path: string) => method === 'GET' && path.endsWith('/updated-payments')

onServer('many shop instances on one PostgreSQL database (real processes)', () => {
  let world: World
  beforeAll(async () => {
    // The instances run the built package.
    execFileSync('pnpm', ['exec', 'tsc', '-b', 'packages/shop-backend'], { cwd: repo, stdio: 'pipe' })
  }, 120_000)

  const newWorld = async () => {
    world = await startWorld()
    cleanups.push(() => world.close())
    return setting(world)
  }

  it('double submits landing on two instances make one payment at the sandbox, and both are answered with it', async () => {
    const shared = await newWorld()
    const [a, b] = [await startInstance('a', shared), await startInstance('b', shared)]
    const shopId = world.sandbox.readyMadeShop.shopId
    for (let round = 0; round < 3; round++) {
      const id = orderId()
      const submission = await cardSubmission(world, id)
      const before = world.sandboxPayments(shopId)
      const [first, second] = await Promise.all([a.post('/api/payments', submission), b.post('/api/payments', submission)])
      expect(first).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
      expect(second).toEqual(first)
      expect(world.sandboxPayments(shopId) - before).toBe(1)
      const { rows } = await shared.pool.query('SELECT state FROM attempts WHERE order_id = $1', [id])
      expect(rows).toEqual([{ state: 'authorised' }])
    }
  })

  /** Two instances whose calls may be out for seconds (5 s a try), and a new order for two tabs to pay. */
  async function twoTabsOnTwoInstances() {
    const shared = await newWorld()
    const timeouts = { deadlineMs: 6_000, attemptTimeoutMs: 5_000 }
    const [a, b] = [await startInstance('a', shared, undefined, timeouts), await startInstance('b', shared, undefined, timeouts)]
    return { shared, a, b, shopId: world.sandbox.readyMadeShop.shopId, id: orderId() }
  }

  const keyInUse =
    "a second tab's resend refused as in use (the first tab's request still being made at the service) waits for it: " +
    'both tabs answered with the one payment'
  it(keyInUse, async () => {
    const { a, b, shopId, id } = await twoTabsOnTwoInstances()
    const [firstTab, secondTab] = [await cardSubmission(world, id), await cardSubmission(world, id)]
    const before = world.sandboxPayments(shopId)
    // The sandbox runs in this process: with libuv's pool held both calls stall in it (their clients ask again
    // after 5 s); released, they race for the key, and the one told 409 must wait for the other's payment.
    const pool = holdThreadPool(mkdtempSync(join(tmpdir(), 'instances-pool-')))
    const first = a.post('/api/payments', firstTab)
    await until('a at the sandbox', () => (a.proxy.counted('POST', '/payments') === 1 ? true : undefined))
    await new Promise((resolve) => setTimeout(resolve, 300))
    const second = b.post('/api/payments', secondTab)
    // b is refused as in use, waits, asks again.
    await until('b asking again', () => (b.proxy.counted('POST', '/payments') >= 2 ? true : undefined))
    await pool.releaseAll()
    expect(await first).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(await second).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(world.sandboxPayments(shopId) - before).toBe(1)
  })

  const firstRefusedAfterResend =
    "the first tab's call refused (its card unreadable) after the second tab resent under the key: " +
    "the second tab's payment is kept, nothing paid twice"
  it(firstRefusedAfterResend, async () => {
    const { shared, a, b, shopId, id } = await twoTabsOnTwoInstances()
    const before = world.sandboxPayments(shopId)
    // a's call is refused at once, its answer slow on the way back; b's resend slow on the way there.
    a.proxy.rule = (method, path) => ({ action: 'forward', delayMs: isPayment(method, path) ? 1_500 : 0 })
    b.proxy.rule = (method, path) => ({ action: 'forward', holdMs: isPayment(method, path) ? 2_500 : 0 })
    const first = a.post('/api/payments', await unreadableCardSubmission(world, id))
    await until('a at the sandbox', () => (a.proxy.counted('POST', '/payments') === 1 ? true : undefined))
    const second = b.post('/api/payments', await cardSubmission(world, id))
    // a hears its refusal while b's call is out under the key: the attempt must stay open for it.
    expect(await first).toMatchObject({ status: 422, body: { error: 'CARD_DATA_REFUSED' } })
    expect(await second).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    const { rows } = await shared.pool.query('SELECT state, psp_reference FROM attempts WHERE order_id = $1', [id])
    expect(rows).toEqual([{ state: 'authorised', psp_reference: expect.any(String) }])
    expect(world.sandboxPayments(shopId) - before).toBe(1)
  })

  const refusedResend =
    "a second tab's card refused under the open attempt's key while the first tab's call is out: " +
    'the attempt stays open, the first payment is kept, nothing is paid twice'
  it(refusedResend, async () => {
    const { shared, a, b, shopId, id } = await twoTabsOnTwoInstances()
    const before = world.sandboxPayments(shopId)
    // a's payment call waits on its way until b's is answered: its attempt and key are stored, the sandbox has seen nothing yet.
    let payments = 0
    const bAnswered = gate()
    a.proxy.rule = (method, path) => ({
      action: 'forward',
      ...(isPayment(method, path) && payments++ === 0 ? { holdUntil: bAnswered.opened } : {}),
    })
    const first = a.post('/api/payments', await cardSubmission(world, id))
    await until('the attempt stored', async () => (await shared.pool.query('SELECT 1 FROM attempts WHERE order_id = $1', [id])).rows[0])
    // The second tab's card data cannot be read (its ciphertext damaged): the service refuses that request.
    const second = await b.post('/api/payments', await unreadableCardSubmission(world, id))
    bAnswered.open()
    expect(second.status).toBe(422)
    expect(second.body).toMatchObject({ error: 'CARD_DATA_REFUSED' })
    expect(await first).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    const { rows } = await shared.pool.query('SELECT state, psp_reference FROM attempts WHERE order_id = $1', [id])
    expect(rows).toEqual([{ state: 'authorised', psp_reference: expect.any(String) }])
    // Paid: the next submission is answered from that payment, and the sandbox holds one.
    expect(await b.post('/api/payments', await cardSubmission(world, id))).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(world.sandboxPayments(shopId) - before).toBe(1)
  })

  const methodSwitch =
    "iDEAL on a second instance while the first instance's card call is on its way: both go under the open key, " +
    'iDEAL is the one payment, the card is told "being confirmed"'
  it(methodSwitch, async () => {
    const { shared, a, b, shopId, id } = await twoTabsOnTwoInstances()
    const before = world.sandboxPayments(shopId)
    // a's card call waits on its way until b's iDEAL is answered: the sandbox has seen nothing of it yet.
    const bAnswered = gate()
    a.proxy.rule = (method, path) => ({ action: 'forward', ...(isPayment(method, path) ? { holdUntil: bAnswered.opened } : {}) })
    const first = a.post('/api/payments', await cardSubmission(world, id))
    await until('the attempt stored', async () => (await shared.pool.query('SELECT 1 FROM attempts WHERE order_id = $1', [id])).rows[0])
    const ideal = { orderId: id, reference: `order-${id}`, amount: { currency: 'EUR', value: 2800 }, paymentMethod: { type: 'ideal' } }
    const second = await b.post('/api/payments', ideal)
    bAnswered.open()
    expect(second).toMatchObject({ status: 200, body: { resultCode: 'RedirectShopper' } })
    expect(await first).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
    const { rows } = await shared.pool.query('SELECT number, method_type, state FROM attempts WHERE order_id = $1', [id])
    expect(rows).toEqual([{ number: 1, method_type: 'ideal', state: 'action_required' }])
    expect(world.sandboxPayments(shopId) - before).toBe(1)
  })

  /**
   * A new order paid through `a`, and an earlier capture of 1.00 whose answers `a` lost: the sandbox
   * took it, the ledger holds it open. `capture(value)` is the admin's click on the order.
   */
  async function paidWithLostCapture(shared: Awaited<ReturnType<typeof setting>>, a: Instance) {
    const id = orderId()
    expect(await a.post('/api/payments', await cardSubmission(world, id))).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    const { rows } = await shared.pool.query('SELECT psp_reference FROM attempts WHERE order_id = $1', [id])
    const capturedAtSandbox = () =>
      world.sandboxRows<{ total: number }>(
        "SELECT SUM(value) AS total FROM modifications WHERE payment_psp_reference = ? AND kind = 'capture'",
        rows[0].psp_reference,
      )[0]!.total
    a.proxy.rule = (method, path) => ({ action: isCapture(method, path) ? 'lose' : 'forward' })
    const capture = (value: number) => ({ kind: 'capture', orderId: id, amount: { currency: 'EUR', value } })
    expect((await a.post('/test/modify', capture(100))).status).toBe(503)
    expect(capturedAtSandbox()).toBe(100)
    return { capture, capturedAtSandbox }
  }

  /** A proxy rule: the nth capture's answer held back `delays[n]` ms (the last one for the rest). */
  const capturesAnsweredLate = (delays: readonly number[]): ServiceProxy['rule'] => {
    let captures = 0
    return (method, path) => ({
      action: 'forward',
      delayMs: isCapture(method, path) ? delays[Math.min(captures++, delays.length - 1)]! : 0,
    })
  }

  /** The double click on 4.91 after the lost 1.00: both answered alike, one capture of each at the sandbox. */
  async function expectOneCapture(instances: readonly [Instance, Instance], click: unknown, capturedAtSandbox: () => number) {
    const [first, second] = await Promise.all(instances.map((instance) => instance.post('/test/modify', click)))
    expect(first!.status).toBe(200)
    expect(first!.body).toMatchObject({ kind: 'capture', state: 'received', amount: { currency: 'EUR', value: 491 } })
    expect(second).toEqual(first)
    expect(capturedAtSandbox()).toBe(100 + 491)
  }

  const doubleClickSplit =
    'a double click on a partial capture split over two instances, while an earlier lost capture is settled, is one capture at the sandbox'
  it(doubleClickSplit, async () => {
    const shared = await newWorld()
    const timeouts = { deadlineMs: 3_000, attemptTimeoutMs: 2_500 }
    const [a, b] = [await startInstance('a', shared, undefined, timeouts), await startInstance('b', shared, undefined, timeouts)]
    const { capture, capturedAtSandbox } = await paidWithLostCapture(shared, a)

    // The double click: both read the open capture and settle it. a's answer comes after 0.3 s (b has
    // read by then), and a sends the new capture, answered 1.5 s late; b's comes after 1 s, so b
    // reads again while a's new capture is out.
    a.proxy.rule = capturesAnsweredLate([300, 1_500])
    b.proxy.rule = capturesAnsweredLate([1_000, 0])
    await expectOneCapture([a, b], capture(491), capturedAtSandbox)
  })

  const lateSecondHalf =
    'the second half of a double click whose instance is held up past the repeat window settling an older request is still the same capture'
  it(lateSecondHalf, async () => {
    const shared = await newWorld()
    const timeouts = { deadlineMs: 5_000, attemptTimeoutMs: 4_000 }
    const windowMs = 1_000
    const a = await startInstance('a', shared, undefined, timeouts, undefined, windowMs)
    const b = await startInstance('b', shared, undefined, timeouts, undefined, windowMs)
    const { capture, capturedAtSandbox } = await paidWithLostCapture(shared, a)

    // Both read the open capture. a settles it after 0.3 s and its new capture is answered at once;
    // b's settling answer comes 2.5 s late, well past the 1 s window from a's answer.
    a.proxy.rule = capturesAnsweredLate([300, 0])
    b.proxy.rule = capturesAnsweredLate([2_500, 0])
    await expectOneCapture([a, b], capture(491), capturedAtSandbox)
  })

  const killedDuringPayment =
    'an instance SIGKILLed during a payment (attempt and key stored, the sandbox acted, no answer yet): the other finishes it, one payment'
  it(killedDuringPayment, async () => {
    const shared = await newWorld()
    const [a, b] = [await startInstance('a', shared), await startInstance('b', shared)]
    const shopId = world.sandbox.readyMadeShop.shopId
    const id = orderId()
    const submission = await cardSubmission(world, id)
    const before = world.sandboxPayments(shopId)
    a.proxy.rule = (method, path) => ({ action: isPayment(method, path) ? 'hang' : 'forward' })
    void a.post('/api/payments', submission).catch(() => {})
    const stored = await until('the payment at the sandbox', async () => {
      if (world.sandboxPayments(shopId) - before !== 1) return undefined
      const { rows } = await shared.pool.query('SELECT idempotency_key, state FROM attempts WHERE order_id = $1', [id])
      return rows[0] as { idempotency_key: string; state: string } | undefined
    })
    expect(['created', 'pending']).toContain(stored.state)
    await a.kill()
    // The same submission again, on the other instance: the same attempt, the same key, the first payment's answer.
    expect(await b.post('/api/payments', submission)).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(world.sandboxPayments(shopId) - before).toBe(1)
    expect(b.proxy.started('POST', '/payments')).toBe(1)
    const { rows } = await shared.pool.query('SELECT idempotency_key, state FROM attempts WHERE order_id = $1', [id])
    expect(rows).toEqual([{ idempotency_key: stored.idempotency_key, state: 'authorised' }])
    await until('the change delivered', () => b.changes.some((c) => c.orderId === id && c.state === 'authorised') || undefined)
  })

  const takeover =
    'the poller runs on one instance at a time; its holder SIGKILLed mid-page, the other takes over within the lease time, ' +
    'nothing lost or applied twice'
  it(takeover, async () => {
    const shared = await newWorld()
    // A lease and a page long enough that b's start (seconds on a busy host) falls inside a's one page.
    const poll = { intervalMs: 200, leaseMs: 8_000 }
    const lease = async () => (await shared.pool.query('SELECT holder FROM leases')).rows[0] as { holder: string } | undefined
    const feedReads = (i: Instance) => i.proxy.started('GET', '/updated-payments')

    // Payments whose answers were lost (a payer instance without a poller): only the feed can settle them.
    const ids = Array.from({ length: 4 }, orderId)
    const payer = await startInstance('payer', shared, undefined, { deadlineMs: 1_000, attemptTimeoutMs: 400 }, (method, path) => ({
      action: isPayment(method, path) ? 'lose' : 'forward',
    }))
    for (const id of ids) expect((await payer.post('/api/payments', await cardSubmission(world, id))).status).toBe(503)
    // Each open outcome heard by the payer as pending, its delivered mark committed before it goes: what b hears
    // below is only what the feed settles (a mark lost to the kill would be heard again, at least once).
    expect(payer.changes.map((c) => `${c.orderId}:${c.state}`)).toEqual(ids.map((id) => `${id}:pending`))
    await until("the payer's changes marked delivered", async () => {
      const { rows } = await shared.pool.query('SELECT COUNT(*)::int AS n FROM outbox')
      return rows[0].n === 0 || undefined
    })
    await payer.kill()

    // a polls first, and its feed pages take 6 s (inside its 8 s lease): it holds one page, uncommitted, for a while.
    const slowFeed: ServiceProxy['rule'] = (method, path) => ({ action: 'forward', ...(isFeed(method, path) ? { delayMs: 6_000 } : {}) })
    const a = await startInstance('a', shared, poll, { deadlineMs: 10_000, attemptTimeoutMs: 8_000 }, slowFeed)
    await until('a to hold the lease', async () => (await lease())?.holder === a.holder || undefined)
    const pageAt = await until('a to ask for a page', () => a.proxy.startedAt('GET', '/updated-payments')[0])
    const b = await startInstance('b', shared, poll)
    // While a holds the lease, b's ticks read nothing.
    await until('2 s into a page', () => Date.now() - pageAt >= 2_000 || undefined)
    expect(feedReads(b)).toBe(0)
    expect(feedReads(a)).toBe(1)
    // SIGKILL a in the middle of that page: it has read nothing back, committed nothing.
    await a.kill()
    const killedAt = Date.now()
    const { rows: before } = await shared.pool.query("SELECT COUNT(*)::int AS n FROM attempts WHERE state = 'authorised'")
    expect(before).toEqual([{ n: 0 }])

    // b takes the lease once a's expires, reads from the stored cursor, and applies each record once.
    await until('b to settle every order', async () => {
      const { rows } = await shared.pool.query("SELECT COUNT(*)::int AS n FROM attempts WHERE state = 'authorised'")
      return rows[0].n === ids.length || undefined
    })
    const takeoverMs = b.proxy.startedAt('GET', '/updated-payments')[0]! - killedAt
    expect(takeoverMs).toBeLessThanOrEqual(poll.leaseMs + poll.intervalMs + 500)
    expect((await lease())?.holder).toBe(b.holder)
    // A delivered change leaves the outbox: empty means everything queued has reached the shop.
    await until('every change delivered', async () => {
      const { rows } = await shared.pool.query('SELECT COUNT(*)::int AS n FROM outbox')
      return (rows[0].n === 0 && ids.every((id) => b.changes.some((c) => c.orderId === id))) || undefined
    })
    const delivered = b.changes.filter((c) => ids.includes(c.orderId)).map((c) => `${c.orderId}:${c.state}`)
    // Applied once: each order's authorisation queued once and delivered once, by b; a delivered nothing.
    expect(delivered.sort()).toEqual(ids.map((id) => `${id}:authorised`).sort())
    expect(a.changes).toEqual([])
    const { rows: attempts } = await shared.pool.query('SELECT version, psp_reference FROM attempts')
    expect(attempts.every((r: { psp_reference: string | null }) => r.psp_reference !== null)).toBe(true)
    const { rows: seen } = await shared.pool.query('SELECT COUNT(*)::int AS n FROM seen_changes')
    const versions = attempts.map((r: { version: number }) => r.version).join(',')

    // Steady state: a third instance's ticks read nothing while b holds the lease and polls.
    const c = await startInstance('c', shared, poll)
    const bBefore = feedReads(b)
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    const bReads = feedReads(b) - bBefore
    expect(bReads).toBeGreaterThanOrEqual(3)
    expect(feedReads(c)).toBe(0)
    console.log(
      `multi-instance takeover: lease ${poll.leaseMs} ms, poll every ${poll.intervalMs} ms; a SIGKILLed 2 s or more into a 6 s page; ` +
        `b read the feed ${takeoverMs} ms later and settled ${ids.length}/${ids.length} orders (${delivered.length} deliveries, ` +
        `the outbox empty, ${seen[0].n} feed records seen, versions ${versions}); ` +
        `then in 1.5 s b read ${bReads}x, c 0x`,
    )
  }, 60_000)
})

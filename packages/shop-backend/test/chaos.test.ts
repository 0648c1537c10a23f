/**
 * Money moves once under chaos: three shop instances (real processes) on one PostgreSQL server of
 * this test's own, behind a fault proxy before the sandbox (resets, lost answers, delays, hangs),
 * instances SIGKILLed and started again, PostgreSQL restarted once with an immediate shutdown.
 * Shoppers double-submit and retry across instances; an admin captures, refunds and cancels, part
 * and whole, often clicking twice so that both clicks land on two instances at once, with and
 * without a requestId. Afterwards, from the sandbox's own records and the ledger: one authorised
 * payment per order at most, one for each order told Authorised, the totals captured and refunded
 * at the service are what the admin was told, every payment reached onOrderChange in its final
 * state, nothing left in the outbox or the poll problems.
 *
 * CHAOS_SEED (printed; default 2611) fixes every choice the test makes: faults, cards, double clicks,
 * plans, kills. CHAOS_SECONDS (default 60, at most 90) is how long the load runs.
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateSecretKey } from '../src/index.js'
import { stateOfPaymentStatus } from '../src/ledger/transitions.js'
import { type InstanceProcess, spawnInstance, until } from './support/instances.js'
import { createDatabase, postgresBinDir, type RunningPostgres, startPostgres } from './support/postgres-process.mjs'
import { postgres } from './support/postgres.js'
import { type ServiceProxy, startServiceProxy } from './support/service-proxy.js'
import { startWorld, type World } from './support/shop.js'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const SEED = Number(process.env.CHAOS_SEED ?? 2611)
const LOAD_MS = Math.min(Number(process.env.CHAOS_SECONDS ?? 60), 90) * 1000
const INSTANCES = 3
const SHOPPERS = 4
const ADMINS = 3

/** mulberry32: every choice of the run follows from the seed. */
function generator(seed: number): () => number {
  let state = seed | 0
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const FAULT_ACTIONS = { reset: 'down', lost: 'lose', hung: 'hang' } as const

interface Answer {
  readonly status: number
  readonly body: Record<string, unknown>
}
/** No answer at all (the instance was killed, or refused the connection): the caller tries again. */
const NO_ANSWER: Answer = { status: 0, body: {} }

interface Click {
  readonly kind: 'capture' | 'refund' | 'cancel'
  readonly amount?: { readonly currency: 'EUR'; readonly value: number }
  readonly requestId?: string
}

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => {})
})

describe.skipIf(postgres.missing !== undefined)('chaos: instances, faults and a database restart', () => {
  beforeAll(() => {
    // The instances run the built package.
    execFileSync('pnpm', ['exec', 'tsc', '-b', 'packages/shop-backend'], { cwd: repo, stdio: 'pipe' })
  }, 120_000)

  const title =
    'under faults, kills and a database restart, with double submits and double clicks across instances, ' +
    'money moves once and every payment reaches the shop in its final state'
  it(title, { timeout: LOAD_MS + 240_000 }, async () => {
    console.log(`chaos seed ${SEED} (CHAOS_SEED=${SEED} repeats this run's choices), ${LOAD_MS / 1000} s of load`)
    const random = generator(SEED)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
    const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1))

    // Durable, as a production server is: an immediate shutdown keeps every commit it acknowledged.
    const server: RunningPostgres = await startPostgres({ bin: postgresBinDir()!, durable: true })
    cleanups.push(() => server.stop())
    const databaseUrl = await createDatabase(server.adminUrl, 'chaos')
    const world: World = await startWorld()
    cleanups.push(() => world.close())
    const shopId = world.sandbox.readyMadeShop.shopId

    // The fault proxy: while the load runs, about one request in eight meets a fault.
    const faults = { reset: 0, lost: 0, delayed: 0, hung: 0 }
    let faulty = true
    const proxy: ServiceProxy = await startServiceProxy(world.sandbox.baseUrl)
    cleanups.push(() => proxy.close())
    proxy.rule = () => {
      if (!faulty) return { action: 'forward' }
      const roll = random()
      const fault = roll < 0.03 ? 'reset' : roll < 0.07 ? 'lost' : roll < 0.08 ? 'hung' : roll < 0.13 ? 'delayed' : undefined
      if (fault === undefined) return { action: 'forward' }
      faults[fault]++
      return fault === 'delayed' ? { action: 'forward', delayMs: between(50, 800) } : { action: FAULT_ACTIONS[fault] }
    }

    const secretKey = Buffer.from(generateSecretKey()).toString('base64')
    const everySpawned: InstanceProcess[] = []
    const start = async (slot: number) => {
      const instance = await spawnInstance(`i${slot}`, {
        databaseUrl,
        serviceUrl: proxy.baseUrl,
        secretKey,
        sandbox: world.sandbox,
        poll: { intervalMs: 300, leaseMs: 3_000 },
        timeouts: { deadlineMs: 3_000, attemptTimeoutMs: 1_000 },
      })
      everySpawned.push(instance)
      cleanups.push(() => instance.kill())
      return instance
    }
    const slots: Array<InstanceProcess | undefined> = []
    for (let slot = 0; slot < INSTANCES; slot++) slots[slot] = await start(slot)
    const send = async (slot: number, path: string, body: unknown): Promise<Answer> => {
      const instance = slots[slot]
      if (!instance) return NO_ANSWER
      return instance.post(path, body).catch(() => NO_ANSWER)
    }
    /** Two different instances for a double click. */
    const twoSlots = (): [number, number] => {
      const first = between(0, INSTANCES - 1)
      return [first, (first + between(1, INSTANCES - 1)) % INSTANCES]
    }

    const certificate = await importCertificate(world.sandbox.certificatePem)
    const approved = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
    const declined = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'refused' })
    const told = new Map<string, string>() // order -> the resultCode the shopper was told
    const answeredTwoWays: string[] = []
    const counts = { orders: 0, doubleSubmits: 0, clicks: 0, doubleClicks: 0, withRequestId: 0, kills: 0, databaseRestarts: 0 }
    const adminQueue: string[] = []
    let loading = true

    // A shopper: a new order, Pay (twice at once on two instances, sometimes), and on no answer or a
    // 503 the same submission again on any instance, as a page's retry does.
    const shopper = async (shopperId: number) => {
      for (let n = 1; loading; n++) {
        const orderId = `c${SEED}s${shopperId}n${n}`
        counts.orders++
        const card = random() < 0.12 ? declined : approved
        const submission = {
          orderId,
          reference: `order-${orderId}`,
          amount: { currency: 'EUR', value: 2800 },
          paymentMethod: toPaymentMethod(await encryptCard(card, certificate)),
        }
        const twice = random() < 0.3
        let answers: Answer[]
        if (twice) {
          counts.doubleSubmits++
          const [a, b] = twoSlots()
          answers = await Promise.all([send(a, '/api/payments', submission), send(b, '/api/payments', submission)])
          const [first, second] = answers
          if (first!.status === 200 && second!.status === 200 && JSON.stringify(first!.body) !== JSON.stringify(second!.body))
            answeredTwoWays.push(`payment ${orderId}: ${JSON.stringify(first!.body)} and ${JSON.stringify(second!.body)}`)
        } else answers = [await send(between(0, INSTANCES - 1), '/api/payments', submission)]
        const deadline = Date.now() + 30_000
        let final = answers.find((a) => a.status === 200)
        while (!final && answers.every((a) => a.status === 0 || a.status === 503) && Date.now() < deadline) {
          await sleep(between(150, 400))
          const again = await send(between(0, INSTANCES - 1), '/api/payments', submission)
          if (again.status === 200) final = again
          answers = [again]
        }
        if (final) {
          told.set(orderId, String(final.body.resultCode))
          if (final.body.resultCode === 'Authorised') adminQueue.push(orderId)
        } else if (answers.some((a) => a.status !== 0 && a.status !== 503)) {
          told.set(orderId, `HTTP ${answers.map((a) => a.status).join('/')}`)
        }
        await sleep(between(20, 120))
      }
    }

    // What the admin was told moved, per order and kind: the sandbox must hold exactly this.
    const moved = new Map<string, { capture: number; refund: number; cancel: number }>()
    const unknownOutcomes: string[] = []
    /** Each order's clicks and the answers they got, for a failure's message. */
    const history = new Map<string, string[]>()
    const note = (orderId: string, line: string) => history.set(orderId, [...(history.get(orderId) ?? []), line])
    /** One merchant click (maybe doubled onto two instances), tried again until it is answered. */
    const click = async (orderId: string, what: Click): Promise<Record<string, unknown> | undefined> => {
      counts.clicks++
      const withId = random() < 0.5
      if (withId) counts.withRequestId++
      const body = { orderId, ...what, ...(withId ? { requestId: `${orderId}-${what.kind}-${counts.clicks}` } : {}) }
      let answers: Answer[]
      if (random() < 0.5) {
        counts.doubleClicks++
        const [a, b] = twoSlots()
        answers = await Promise.all([send(a, '/test/modify', body), send(b, '/test/modify', body)])
        const [first, second] = answers
        if (first!.status === 200 && second!.status === 200 && JSON.stringify(first!.body) !== JSON.stringify(second!.body))
          answeredTwoWays.push(`${what.kind} ${orderId}: ${JSON.stringify(first!.body)} and ${JSON.stringify(second!.body)}`)
      } else answers = [await send(between(0, INSTANCES - 1), '/test/modify', body)]
      const deadline = Date.now() + 45_000
      for (;;) {
        note(orderId, `${JSON.stringify(body)} -> ${answers.map((a) => `${a.status} ${JSON.stringify(a.body)}`).join(' | ')}`)
        const answered = answers.find((a) => a.status === 200)
        // A request the service refused, answered again from the ledger, moved nothing.
        if (answered && (answered.body as { state?: string }).state === 'refused') return undefined
        if (answered) {
          const result = answered.body as { kind: Click['kind']; amount?: { value: number } }
          const sums = moved.get(orderId) ?? { capture: 0, refund: 0, cancel: 0 }
          sums[result.kind] += result.kind === 'cancel' ? 1 : result.amount!.value
          moved.set(orderId, sums)
          return answered.body
        }
        // Refused for good: nothing moved. A refund before the feed shows the capture is refused for now.
        const refused = answers.find((a) => a.status !== 0 && a.status !== 503)
        const waitingForFeed = refused?.body.error === 'MODIFICATION_NOT_ALLOWED' && what.kind === 'refund'
        if (refused && !waitingForFeed) return undefined
        if (Date.now() > deadline) {
          if (!refused) unknownOutcomes.push(`${what.kind} ${orderId}`)
          return undefined
        }
        await sleep(between(200, 500))
        // The same click again: with its requestId, or plain (settles the stored one under its key).
        answers = [await send(between(0, INSTANCES - 1), '/test/modify', body)]
      }
    }
    const eur = (value: number) => ({ currency: 'EUR' as const, value })
    // The admin: for each order told Authorised, one plan of clicks.
    const admin = async () => {
      for (;;) {
        const orderId = adminQueue.shift()
        if (!orderId) {
          if (!loading) return
          await sleep(100)
          continue
        }
        const plan = pick(['cancel', 'part then rest', 'whole then refunds', 'part, refunds', 'leave'] as const)
        if (plan === 'cancel') await click(orderId, { kind: 'cancel' })
        else if (plan === 'part then rest') {
          await click(orderId, { kind: 'capture', amount: eur(between(100, 1500)) })
          await click(orderId, { kind: 'capture' })
        } else if (plan === 'whole then refunds') {
          await click(orderId, { kind: 'capture' })
          await click(orderId, { kind: 'refund', amount: eur(between(100, 900)) })
          await click(orderId, { kind: 'refund' })
        } else if (plan === 'part, refunds') {
          const part = between(1000, 2000)
          await click(orderId, { kind: 'capture', amount: eur(part) })
          await click(orderId, { kind: 'refund', amount: eur(between(100, part - 1)) })
          await click(orderId, { kind: 'refund' })
        }
      }
    }

    // Kills every 8-15 s (an instance back 0.5-2 s later), and one immediate PostgreSQL restart.
    const chaos = async () => {
      const startedAt = Date.now()
      let restarted = false
      let nextKill = startedAt + between(8_000, 15_000)
      while (loading) {
        await sleep(100)
        if (!restarted && Date.now() - startedAt > LOAD_MS * 0.45) {
          restarted = true
          counts.databaseRestarts++
          await server.halt('SIGQUIT')
          await server.resume()
        }
        if (Date.now() >= nextKill && loading) {
          const slot = between(0, INSTANCES - 1)
          const victim = slots[slot]!
          slots[slot] = undefined
          await victim.kill()
          counts.kills++
          await sleep(between(500, 2_000))
          slots[slot] = await start(slot)
          nextKill = Date.now() + between(8_000, 15_000)
        }
      }
    }

    const shoppers = Promise.all(Array.from({ length: SHOPPERS }, (_, id) => shopper(id)))
    const admins = Promise.all(Array.from({ length: ADMINS }, () => admin()))
    const chaotic = chaos()
    await sleep(LOAD_MS)
    loading = false
    await Promise.all([shoppers, chaotic])
    // The faults stop; the admin finishes its plans and every instance's poller settles the rest.
    faulty = false
    await admins

    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 })
    cleanups.push(() => pool.end())
    const sandboxPayments = () =>
      world.sandboxRows<{
        psp_reference: string
        reference: string
        status: string
        result_code: string
        captured: number
        refunded: number
      }>('SELECT psp_reference, reference, status, result_code, captured, refunded FROM payments WHERE shop_id = ?', shopId)
    const delivered = () => everySpawned.flatMap((i) => i.changes) as Array<Record<string, unknown>>
    /** What each payment at the sandbox should have reached the shop as: its order, state and totals. */
    const finalChanges = () =>
      sandboxPayments().map((p) => ({
        orderId: p.reference.slice('order-'.length),
        state: stateOfPaymentStatus(p.status) ?? `unknown status ${p.status}`,
        capturedValue: p.captured,
        refundedValue: p.refunded,
      }))
    const missing = () => {
      const seen = new Set(delivered().map((c) => `${c.orderId} ${c.state} ${c.capturedValue} ${c.refundedValue}`))
      return finalChanges().filter((c) => !seen.has(`${c.orderId} ${c.state} ${c.capturedValue} ${c.refundedValue}`))
    }
    const leftOver = async () => {
      const { rows } = await pool.query(
        'SELECT (SELECT COUNT(*) FROM outbox)::int AS outbox, (SELECT COUNT(*) FROM poll_problems)::int AS problems',
      )
      return rows[0] as { outbox: number; problems: number }
    }
    await until(
      'every payment at the sandbox delivered in its final state, the outbox and the poll problems empty',
      async () => {
        const left = await leftOver()
        return (missing().length === 0 && left.outbox === 0 && left.problems === 0) || undefined
      },
      90_000,
    ).catch(async (error: unknown) => {
      const { rows: problems } = await pool.query('SELECT * FROM poll_problems LIMIT 5')
      console.log(`not settled: ${JSON.stringify({ missing: missing().slice(0, 10), ...(await leftOver()), problems })}`)
      if (process.env.CHAOS_LOGS) for (const i of everySpawned) console.log(`--- ${i.name} (pid ${i.child.pid})\n${i.stderr()}`)
      throw error
    })

    const payments = sandboxPayments()
    const authorisedOf = new Map<string, number>()
    for (const p of payments)
      if (p.status !== 'refused' && p.result_code !== 'Refused') authorisedOf.set(p.reference, (authorisedOf.get(p.reference) ?? 0) + 1)
    // At most one authorised payment per order; exactly one for each order told Authorised.
    expect([...authorisedOf].filter(([, n]) => n > 1)).toEqual([])
    const toldAuthorised = [...told].filter(([, code]) => code === 'Authorised').map(([id]) => id)
    expect(toldAuthorised.filter((id) => authorisedOf.get(`order-${id}`) !== 1)).toEqual([])
    // Captured and refunded at the service: exactly what the admin was told, never a refund above its capture.
    const atService = payments.map((p) => ({
      order: p.reference.slice('order-'.length),
      captured: p.captured,
      refunded: p.refunded,
      cancelled: p.status === 'cancelled' ? 1 : 0,
    }))
    const asked = atService.map(({ order }) => {
      const sums = moved.get(order)
      return { order, captured: sums?.capture ?? 0, refunded: sums?.refund ?? 0, cancelled: sums?.cancel ? 1 : 0 }
    })
    const differ = atService.flatMap((p, i) =>
      JSON.stringify(p) === JSON.stringify(asked[i]) ? [] : [{ atService: p, told: asked[i], clicks: history.get(p.order) }],
    )
    // The first in the message, whole: the assertion's own diff cuts the clicks' answers short.
    expect(differ, `seed ${SEED}: ${JSON.stringify(differ[0])}`).toEqual([])
    expect(atService.filter((p) => p.refunded > p.captured)).toEqual([])
    expect(unknownOutcomes).toEqual([])
    // Two requests for one thing, answered alike (a double submit, a double click).
    expect(answeredTwoWays).toEqual([])
    // The ledger agrees with the sandbox: each paid attempt holds its payment's totals.
    const { rows: ledger } = await pool.query(
      'SELECT psp_reference, state, captured_value::int AS captured_value, refunded_value::int AS refunded_value FROM attempts',
    )
    const byReference = new Map(ledger.map((r: { psp_reference: string }) => [r.psp_reference, r]))
    expect(
      payments.filter((p) => {
        const row = byReference.get(p.psp_reference) as { state: string; captured_value: number; refunded_value: number } | undefined
        return (
          !row || row.state !== stateOfPaymentStatus(p.status) || row.captured_value !== p.captured || row.refunded_value !== p.refunded
        )
      }),
    ).toEqual([])

    const modifications = world.sandboxRows<{ kind: string; n: number }>(
      'SELECT m.kind, COUNT(*) AS n FROM modifications m JOIN payments p ON p.psp_reference = m.payment_psp_reference ' +
        'WHERE p.shop_id = ? GROUP BY m.kind',
      shopId,
    )
    const byKind = Object.fromEntries(modifications.map((m) => [m.kind, m.n]))
    const faultTotal = faults.reset + faults.lost + faults.delayed + faults.hung
    console.log(
      `chaos seed ${SEED}: ${counts.orders} orders (${counts.doubleSubmits} double submits), ${payments.length} payments at the sandbox ` +
        `(${toldAuthorised.length} told Authorised), modifications ${JSON.stringify(byKind)} ` +
        `from ${counts.clicks} clicks (${counts.doubleClicks} double, ${counts.withRequestId} with a requestId); ` +
        `${counts.kills} kills, ${counts.databaseRestarts} immediate database restart, ${faultTotal} faults ${JSON.stringify(faults)}; ` +
        `${delivered().length} deliveries by ${everySpawned.length} processes`,
    )
    expect(counts.kills).toBeGreaterThanOrEqual(Math.floor(LOAD_MS / 15_000) - 1)
  })
})

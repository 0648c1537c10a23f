/**
 * 6. Payments through the package's handler (`@card-jwe/shop-backend` on its Node adapter, a
 * ledger store from `storeFactories`) against the sandbox direct: the same card payments, 16
 * connections, every request used once (a fresh JWE, and a fresh order through the shop, all made
 * before the timed run). Beside them, the cost of one extra Node hop: the same bodies signed and
 * forwarded with no ledger, no checks, no framework (`/bench/forward`); and the floor of any shop
 * back end that keeps the money rule: that hop with the idempotency key stored durably before the
 * call and the answer before the reply, in a one-table ledger on the same store (`/bench/floor`,
 * minimal-ledger.mjs). The four paths take turns for BENCH_ROUNDS rounds (3), in an order that turns
 * each round and runs backwards every other round (each path follows different ones), and the round
 * with the handler's median ratio is reported: one pair of short runs on two shared cores varies by a
 * tenth.
 * Each run also says what a payment cost each process in CPU (process-cpu.mjs): the sandbox, the
 * shop, this load generator, the rest of the machine. Direct requests carry an idempotency key as
 * the shop's do, so the sandbox does the same work for each path; the sandbox, the handler, the
 * forward hop and the floor are warmed up before anything is measured. Afterwards every acknowledged
 * payment must be in the ledger as paid, and the sandbox must hold one payment per acknowledgement.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encryptCardBatch, findTestCard } from '@card-jwe/testkit'
import { runLoad, summary } from './load.mjs'
import { capacities, HELD_P99_MS } from './capacity-search.mjs'
import { runOpenLoad } from './open-load.mjs'
import { CORES_OF_PLACEMENT, pinProcess } from './placement.mjs'
import { ratio } from './measure.mjs'
import { startCpuMeter } from './process-cpu.mjs'
import { newIdempotencyKey } from '../../packages/shop-backend/dist/lib/idempotency-key.js'
import { directCardPaymentBody, registerShop, signedRequest, startProcess } from './services.mjs'
import { storeFactories } from './store-factories.mjs'

const Database = createRequire(new URL('../../apps/sandbox/package.json', import.meta.url))('better-sqlite3')

/** What the page posts to /api/payments for order `id` (the bench shop's orders are numbers, 28.00 EUR each). */
const shopBody = (jwe, id, reference = `bench-order-${id}`) =>
  JSON.stringify({
    orderId: String(id),
    reference,
    amount: { currency: 'EUR', value: 2800 },
    paymentMethod: { type: 'scheme', jwe },
  })

/** Node's flags for a V8 CPU profile written to `dir` when the process ends; none without a `dir`. */
const profileArgs = (dir) => (dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [])

/** A warm-up's failures would leave the measured runs on a cold or broken path: the bench stops. */
function mustAllSucceed(what, result) {
  if (result.errors + result.non2xx > 0)
    throw new Error(`${what}: ${result.errors} errors ${JSON.stringify(result.errorKinds ?? {})}, ${result.non2xx} non-2xx answers`)
}

export async function shopBackendLoad({
  seconds,
  store = 'sqlite',
  placement = 'shared',
  rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3) || 3),
}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'card-jwe-bench-shop-backend-'))
  const cores = CORES_OF_PLACEMENT[placement]
  if (cores === undefined) throw new Error(`placement: one of ${Object.keys(CORES_OF_PLACEMENT).join(', ')}`)
  // This process (the load generator) first: the database and the shop started below inherit its cores.
  pinProcess(process.pid, cores.shop)
  const sandbox = await startProcess(
    'apps/sandbox/dist/cli.js',
    { SANDBOX_DATA_DIR: join(dataDir, 'sandbox'), SANDBOX_PORT: '0' },
    /certificate .*\n/,
    profileArgs(process.env.BENCH_SANDBOX_PROFILE_DIR),
  )
  pinProcess(sandbox.child.pid, cores.service)
  const url = /listening at (\S+)/.exec(sandbox.output)[1]
  const certificatePem = readFileSync(/certificate (\S+)/.exec(sandbox.output)[1], 'utf8')
  const registered = await registerShop(url)
  const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
  const jwes = (count) =>
    encryptCardBatch(
      Array.from({ length: count }, () => card),
      certificatePem,
    )
  const path = `/shopplatform/processor/stores/${registered.storeId}/payments`
  let shop
  let storeService
  try {
    // With an idempotency key made as the shop makes its own: the sandbox looks each one up and stores it.
    const directRequests = async (count, id) =>
      (await jwes(count)).map((jwe, i) =>
        signedRequest(registered, 'POST', path, directCardPaymentBody(jwe, id(i)), { 'idempotency-key': newIdempotencyKey() }),
      )
    // The sandbox's first thousand payments run slower (its code not yet optimised, its caches cold):
    // direct measured 2000/s in the first round and 2600/s after. They run before anything is measured.
    mustAllSucceed('the sandbox warm-up', summary(await runLoad({ url, requests: await directRequests(1000, (i) => `warm-${i}`) })))
    // Calibrate on the sandbox, then the same number of payments each way.
    const calibration = summary(await runLoad({ url, requests: await directRequests(400, (i) => i) }))
    const count = Math.max(1000, Math.round(calibration.perSecond * seconds))

    storeService = await storeFactories[store]?.service?.({ dataDir })
    shop = await startProcess(
      'test/bench/shop-backend-server.mjs',
      {
        ...storeService?.env,
        BENCH_STORE: store,
        BENCH_DATA_DIR: join(dataDir, 'shop'),
        SERVICE_URL: url,
        CERTIFICATE_PEM: certificatePem,
        SHOP_ID: registered.shopId,
        SERVICE_SECRET: registered.serviceSecret,
        STORE_ID: registered.storeId,
      },
      /shop: \S+/,
      profileArgs(process.env.BENCH_SHOP_PROFILE_DIR),
    )
    const shopUrl = /shop: (\S+)/.exec(shop.output)[1]
    /** What the page posts to the shop: `bodyOf(jwe, i)` for the i-th of `count` fresh JWEs. */
    const pageRequests = async (pathname, count, bodyOf) =>
      (await jwes(count)).map((jwe, i) => ({
        method: 'POST',
        path: pathname,
        headers: { 'content-type': 'application/json' },
        body: bodyOf(jwe, i),
      }))
    const throughRequests = (count, id) => pageRequests('/api/payments', count, (jwe, i) => shopBody(jwe, id(i)))
    // Its orders are not the shop's (`f-…`): a poll can never match one of them to a ledger attempt.
    const forwardRequests = (count, id) =>
      pageRequests('/bench/forward', count, (jwe, i) => shopBody(jwe, `f-${id(i)}`, `bench-forward-${id(i)}`))
    const floorRequests = (count, id) =>
      pageRequests('/bench/floor', count, (jwe, i) => shopBody(jwe, `m-${id(i)}`, `bench-floor-${id(i)}`))
    // A warm-up outside the timed runs (the first requests compile the handler's paths); its orders after theirs.
    const warm = await throughRequests(200, (i) => rounds * count + i)
    mustAllSucceed('the handler warm-up', summary(await runLoad({ url: shopUrl, requests: warm })))
    mustAllSucceed(
      'the forward warm-up',
      summary(await runLoad({ url: shopUrl, requests: await forwardRequests(200, (i) => `warm-${i}`) })),
    )
    mustAllSucceed('the floor warm-up', summary(await runLoad({ url: shopUrl, requests: await floorRequests(200, (i) => `warm-${i}`) })))
    const meter = () => startCpuMeter({ sandbox: sandbox.child.pid, shop: shop.child.pid, load: process.pid })
    /** A measured run: the requests made first, then sent with the CPU meter on. */
    const timed = async (target, requests) => summary(await runLoad({ url: target, requests: await requests, meter }))

    const measured = []
    for (let round = 0; round < rounds; round++) {
      const first = round * count
      const runs = {
        direct: () =>
          timed(
            url,
            directRequests(count, (i) => 1000 + first + i),
          ),
        forward: () =>
          timed(
            shopUrl,
            forwardRequests(count, (i) => first + i),
          ),
        floor: () =>
          timed(
            shopUrl,
            floorRequests(count, (i) => first + i),
          ),
        through: () =>
          timed(
            shopUrl,
            throughRequests(count, (i) => first + i),
          ),
      }
      // The order turns each round, backwards every other round: no path always runs on the fullest
      // sandbox, or after the same other path's garbage (a database's vacuum, a WAL's checkpoint).
      const paths = ['direct', 'forward', 'floor', 'through']
      const order = paths.map((_, k) => paths[(k + round) % paths.length])
      if (round % 2 === 1) order.reverse()
      const result = {}
      for (const name of order) result[name] = await runs[name]()
      // Direct's machine CPU a payment over the path's, in this round: with the cores as busy on both,
      // the throughput ratio (requests a second x CPU a request = the cores' busy time).
      const costRatio = (path) => (path.cpu && result.direct.cpu ? ratio(result.direct.cpu.machine, path.cpu.machine) : undefined)
      const againstDirect = (path) => ({ ...path, vsDirect: ratio(path.perSecond, result.direct.perSecond), costRatio: costRatio(path) })
      measured.push({
        direct: result.direct,
        forward: againstDirect(result.forward),
        floor: againstDirect(result.floor),
        through: { ...result.through, costRatio: costRatio(result.through) },
        vsDirect: ratio(result.through.perSecond, result.direct.perSecond),
      })
    }
    // The handler's median round, all four paths from it (one direct for every ratio); the forward
    // and floor paths' own median rounds' ratios beside them.
    const medianBy = (ratioOf) => [...measured].sort((a, b) => ratioOf(a) - ratioOf(b))[Math.floor(measured.length / 2)]
    const { direct, forward, floor, through, vsDirect } = medianBy((m) => m.vsDirect)
    const forwardMedian = medianBy((m) => m.forward.vsDirect).forward.vsDirect
    const floorMedian = medianBy((m) => m.floor.vsDirect).floor.vsDirect
    const ledger = await (await fetch(`${shopUrl}/bench/ledger?from=0&to=${rounds * count}`)).json()
    const acknowledged = measured.reduce((sum, m) => sum + m.through.requests - m.through.non2xx, 0)
    const sandboxOrders = () => {
      const sandboxDb = new Database(join(dataDir, 'sandbox', 'sandbox.sqlite'), { readonly: true })
      try {
        return sandboxDb.prepare("SELECT COUNT(*) AS n FROM payments WHERE reference LIKE 'bench-order-%'").get().n
      } finally {
        sandboxDb.close()
      }
    }
    const sandboxRows = sandboxOrders()

    // Then as shoppers arrive: the highest steady rate of payments each way, from direct's closed-loop pace.
    const capacityFrom = rounds * count + warm.length
    let nextOrder = capacityFrom
    let nextDirect = 0
    const capacityRuns = {
      direct: async (rate) => {
        const requests = await directRequests(Math.round(rate * seconds), (i) => `open-${nextDirect + i}`)
        nextDirect += requests.length
        return runOpenLoad({ url, requests, rate })
      },
      through: async (rate) => {
        const requests = await throughRequests(Math.round(rate * seconds), (i) => nextOrder + i)
        nextOrder += requests.length
        return runOpenLoad({ url: shopUrl, requests, rate })
      },
    }
    const capacity = await capacities(capacityRuns, direct.perSecond)
    const capacityLedger = await (await fetch(`${shopUrl}/bench/ledger?from=${capacityFrom}&to=${nextOrder}`)).json()
    const capacityAcknowledged = capacity.through.steps.reduce((sum, step) => sum + step.acknowledged, 0)
    const capacitySandboxPayments = sandboxOrders() - sandboxRows
    return {
      store,
      placement,
      ...(storeService?.note ? { note: storeService.note } : {}),
      direct,
      forward,
      forwardMedian,
      floor,
      floorMedian,
      shop: {
        ...through,
        ledgerPaid: ledger.paid,
        ledgerAttempts: ledger.attempts,
        sandboxPayments: sandboxRows - warm.length,
      },
      vsDirect,
      acknowledged,
      rounds: measured.map((m) => ({
        directPerSecond: m.direct.perSecond,
        forwardPerSecond: m.forward.perSecond,
        floorPerSecond: m.floor.perSecond,
        throughPerSecond: m.through.perSecond,
        forwardCostRatio: m.forward.costRatio,
        floorCostRatio: m.floor.costRatio,
        throughCostRatio: m.through.costRatio,
        forwardVsDirect: m.forward.vsDirect,
        floorVsDirect: m.floor.vsDirect,
        vsDirect: m.vsDirect,
      })),
      capacity: {
        heldP99Ms: HELD_P99_MS,
        secondsPerRate: seconds,
        direct: capacity.direct.held?.rate ?? 0,
        through: capacity.through.held?.rate ?? 0,
        // Held at the highest rate tried: at least that much.
        atLeast: { direct: capacity.direct.notHeld === undefined, through: capacity.through.notHeld === undefined },
        vsDirect: ratio(capacity.through.held?.rate ?? 0, capacity.direct.held?.rate ?? 0),
        steps: { direct: capacity.direct.steps, through: capacity.through.steps },
        acknowledged: capacityAcknowledged,
        ledgerPaid: capacityLedger.paid,
        ledgerAttempts: capacityLedger.attempts,
        sandboxPayments: capacitySandboxPayments,
      },
      targets: {
        // The target is judged with the service apart, as it runs; on shared cores the ratio is measured beside it.
        ...(placement === 'separate'
          ? { [`through the handler (${store}) >= 0.7 of direct, the service on a core of its own`]: vsDirect >= 0.7 }
          : {}),
        'zero errors, every acknowledged payment paid in the ledger, one payment each at the sandbox':
          measured.every((m) => [m.direct, m.forward, m.floor, m.through].every((path) => path.errors + path.non2xx === 0)) &&
          ledger.paid === acknowledged &&
          ledger.attempts === acknowledged &&
          sandboxRows - warm.length === acknowledged,
        // Past what a path holds, a payment may be answered 503 and still be made: paid, once, is what counts.
        'as shoppers arrive (an open loop, every rate tried): every acknowledged payment paid, each paid order paid once at the sandbox':
          capacityLedger.paid >= capacityAcknowledged && capacitySandboxPayments === capacityLedger.paid,
      },
    }
  } finally {
    await shop?.stop()
    await storeService?.stop()
    registered.close()
    await sandbox.stop()
  }
}

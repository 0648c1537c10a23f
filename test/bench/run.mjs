#!/usr/bin/env node
/**
 * `pnpm bench`: every benchmark in one bounded run on loopback. Writes
 * test-results/bench/benchmarks.json and test-results/bench/benchmarks.md, and prints the tables.
 * BENCH_SECONDS (default 3) sets the length of each timed loop. BENCH_SECTIONS (default all) picks
 * sections by name: node, browser, bundles, sandbox, shop-backend (e.g. BENCH_SECTIONS=shop-backend).
 * Section 6 also reads BENCH_STORES (sqlite,postgres), BENCH_PLACEMENTS (separate,shared where the
 * machine has two cores and taskset) and BENCH_ROUNDS (3); BENCH_SHOP_PROFILE_DIR and
 * BENCH_SANDBOX_PROFILE_DIR, if set, get a V8 CPU profile of the shop's or the sandbox's process.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import { browserEncryption } from './browser-encryption.mjs'
import { bundleWeight } from './bundle-weight.mjs'
import { nodeEncryption } from './node-encryption.mjs'
import { sandboxLoad } from './sandbox-load.mjs'
import { placementsHere } from './placement.mjs'
import { shopBackendLoad } from './shop-backend-load.mjs'
import { syncCost } from './sync-cost.mjs'
import { storeFactories } from './store-factories.mjs'

const seconds = Number(process.env.BENCH_SECONDS ?? 3)
const started = Date.now()
const machine = {
  node: process.version,
  cpus: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}`,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  date: new Date().toISOString(),
}
const log = (text) => process.stdout.write(`[bench] ${text}\n`)

const sections = new Set((process.env.BENCH_SECTIONS ?? 'node,browser,bundles,sandbox,shop-backend').split(',').filter(Boolean))
const section = async (name, label, run) => {
  if (!sections.has(name)) return undefined
  log(label)
  return run()
}

const node = await section('node', '1/5 Node encryption', () => nodeEncryption({ seconds, rounds: 5 }))
const browser = await section('browser', '2/5 browser encryption (Chromium)', () => browserEncryption({ seconds, rounds: 3 }))
const bundles = await section('bundles', '3/5 bundle weight', () => bundleWeight())
const load = await section('sandbox', '4/5 sandbox under load, demo backend overhead (two runs)', async () => [
  await sandboxLoad({ seconds }),
  await sandboxLoad({ seconds }),
])
// BENCH_STORES: the ledger stores to measure the package's handler on (default all in storeFactories).
const stores = (process.env.BENCH_STORES ?? Object.keys(storeFactories).join(',')).split(',').filter(Boolean)
// BENCH_PLACEMENTS: separate (the sandbox on a core of its own) and shared, where the machine can run both.
const placements = (process.env.BENCH_PLACEMENTS ?? placementsHere().join(',')).split(',').filter(Boolean)
const shopBackend = await section(
  'shop-backend',
  `5/5 payments through @card-jwe/shop-backend's handler (Node adapter) against the sandbox direct: ${stores.join(', ')}; ` +
    placements.join(', '),
  async () => {
    const results = []
    for (const placement of placements) for (const store of stores) results.push(await shopBackendLoad({ seconds, store, placement }))
    return results
  },
)

// The disk under the bench's ledgers (the temporary folder), measured once for section 6.
const diskSync = await section('shop-backend', 'one fdatasync on this disk', () => syncCost())

const results = {
  machine,
  seconds,
  node,
  browser,
  bundles,
  load,
  shopBackend,
  diskSync,
  elapsedSeconds: Math.round((Date.now() - started) / 1000),
}
const dir = fileURLToPath(new URL('../../test-results/bench/', import.meta.url))
mkdirSync(dir, { recursive: true })
writeFileSync(`${dir}benchmarks.json`, JSON.stringify(results, null, 2))

const table = (rows, columns) =>
  [
    `| ${columns.join(' | ')} |`,
    `|${columns.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${columns.map((c) => r[c] ?? '').join(' | ')} |`),
  ].join('\n')
const targets = (t) =>
  Object.entries(t)
    .map(([k, v]) => `- ${v ? 'met' : 'MISSED'}: ${k}`)
    .join('\n')
const loadRows = (load ?? []).flatMap((l, i) => [
  {
    run: i + 1,
    path: 'sandbox direct',
    perSecond: l.sandbox.perSecond,
    p50Ms: l.sandbox.p50Ms,
    p99Ms: l.sandbox.p99Ms,
    errors: l.sandbox.errors + l.sandbox.non2xx,
    ratio: `${l.sandboxVsFloor} of floor (${l.decryptionFloorPerSecond}/s; the key parsed once ${l.decryptionKeyParsedOncePerSecond}/s)`,
    stored: `${l.paymentRows}/${l.paymentsAcknowledged}`,
  },
  {
    run: i + 1,
    path: 'through demo backend',
    perSecond: l.demo.perSecond,
    p50Ms: l.demo.p50Ms,
    p99Ms: l.demo.p99Ms,
    errors: l.demo.errors + l.demo.non2xx,
    ratio: `${l.demoVsDirect} of direct`,
    stored: `${l.demo.ordersWithPspReference}/${l.demo.requests}`,
  },
])
const SHOP_BACKEND_COLUMNS = [
  'store',
  'path',
  'requests',
  'perSecond',
  'p50Ms',
  'p99Ms',
  'errors',
  'non2xx',
  'ratio',
  'rounds',
  'cpuMsPerPayment',
  'idle',
  'ledger',
]
/** CPU ms a payment cost each process (process-cpu.mjs) and the machine in all. */
const cpuCell = (cpu) =>
  cpu ? `sandbox ${cpu.sandbox}, shop ${cpu.shop}, load ${cpu.load}, rest ${cpu.rest}: ${cpu.machine}` : 'not measured'
const cpuColumns = (path) => ({ cpuMsPerPayment: cpuCell(path.cpu), idle: path.cpu?.idleShare ?? '' })
/** Direct's machine CPU ms a payment over the path's (the same round): the throughput ratio if the cores were as busy on both. */
const costRatio = (path) => (path.costRatio === undefined ? '' : `; CPU ms ratio ${path.costRatio}`)
/** A row for a path compared with direct that has its own median round (`forward`, `floor`). */
const comparedRow = (r, key, path) => ({
  store: `${r.store}, ${r.placement}`,
  path,
  ...r[key],
  ratio: `${r[key].vsDirect} of direct${costRatio(r[key])}; median of rounds ${r[`${key}Median`]}`,
  rounds: r.rounds.map((m) => m[`${key}VsDirect`]).join(', '),
  ...cpuColumns(r[key]),
  ledger: '',
})
const shopBackendRows = (shopBackend ?? []).flatMap((r) => [
  { store: `${r.store}, ${r.placement}`, path: 'sandbox direct', ...r.direct, ratio: '', rounds: '', ...cpuColumns(r.direct), ledger: '' },
  comparedRow(r, 'forward', 'forward only (no ledger, no checks)'),
  comparedRow(r, 'floor', 'floor: key and answer stored durably, nothing else'),
  {
    store: `${r.store}, ${r.placement}`,
    path: 'through the handler',
    ...r.shop,
    ratio: `${r.vsDirect} of direct${costRatio(r.shop)}`,
    rounds: r.rounds.map((m) => m.vsDirect).join(', '),
    ...cpuColumns(r.shop),
    ledger: `${r.shop.ledgerPaid}/${r.acknowledged} paid, ${r.shop.sandboxPayments} at the sandbox`,
  },
])
/** What each path held as shoppers arrive, and every rate tried on the way (`held` marked). */
const capacityRows = (shopBackend ?? []).flatMap((r) =>
  ['direct', 'through'].map((name) => {
    const held = r.capacity.steps[name].find((step) => step.held && step.rate === r.capacity[name])
    return {
      store: `${r.store}, ${r.placement}`,
      path: name === 'direct' ? 'sandbox direct' : 'through the handler',
      heldPerSecond: `${r.capacity.atLeast[name] ? 'at least ' : ''}${r.capacity[name]}`,
      p50Ms: held?.p50Ms ?? '',
      p99Ms: held?.p99Ms ?? '',
      ratio: name === 'through' ? `${r.capacity.vsDirect} of direct` : '',
      tried: r.capacity.steps[name].map((s) => `${s.rate}: ${s.perSecond}/s, p99 ${s.p99Ms} ms${s.held ? '' : ' (not held)'}`).join('; '),
      ledger:
        name === 'through' ? `${r.capacity.ledgerPaid}/${r.capacity.acknowledged} paid, ${r.capacity.sandboxPayments} at the sandbox` : '',
    }
  }),
)
const CAPACITY_COLUMNS = ['store', 'path', 'heldPerSecond', 'p50Ms', 'p99Ms', 'ratio', 'tried', 'ledger']
const syncLine = (sync) =>
  sync
    ? `One fdatasync on this disk (4 KB rewritten, then synced): ${sync.cpuMsPerSync} ms of CPU, ${sync.wallMsPerSync} ms of wall time.\n`
    : ''
const firstJweLine = (b) => {
  const { importCertificate, firstEncrypt, secondEncrypt } = b.firstJweBreakdownMs
  return (
    `First JWE from certificate text in a fresh page: ${b.firstJweMs} ms (certificate import ${importCertificate} ms, ` +
    `first encryption ${firstEncrypt} ms, second ${secondEncrypt} ms); one steady-state operation ${b.steadyOpMs} ms ` +
    `(${b.firstVsSteady}x); card-jwe's normalisation ${b.normalizePerCardUs} µs per card. ` +
    `The first JWE after Pay with the certificate imported and warmed at mount, as @card-jwe/checkout does: ` +
    `${b.firstAfterMountMs} ms (${b.firstAfterMountVsSteady}x). After the same 200 ms of idle in a page long warm, ` +
    `one encryption takes ${b.afterIdleMs} ms (the first after Pay is ${b.firstAfterMountVsAfterIdle}x that) and a bare ` +
    `AES-GCM of the payload ${b.aesAfterIdleMs} ms: what the browser charges any operation after idle.`
  )
}
const parts = [
  `## Measured ${machine.date} (${machine.cpus}, ${machine.memoryGiB} GiB, Node ${machine.node}), ${results.elapsedSeconds} s`,
  node &&
    `### 1. Node encryption (ops/s)
${table(node.rows, ['name', 'concurrency', 'opsPerSecond', 'vsFloor', 'vsJose'])}

${targets(node.targets)}`,
  browser &&
    `### 2. Browser encryption, ${browser.browser} (ops/s, one card at a time)
${table(browser.rows, ['name', 'opsPerSecond', 'vsFloor', 'vsJose'])}

${firstJweLine(browser)}

${targets(browser.targets)}`,
  bundles &&
    `### 3. Bundle weight (bytes)
${table(bundles.rows, ['name', 'minified', 'gzip', 'budget', 'note'])}

${targets(bundles.targets)}`,
  load &&
    `### 4-5. Sandbox under load, demo backend overhead (16 connections, every request used once)
${table(loadRows, ['run', 'path', 'perSecond', 'p50Ms', 'p99Ms', 'errors', 'ratio', 'stored'])}

${load.map((l, i) => `Run ${i + 1}:\n${targets(l.targets)}`).join('\n\n')}`,
  shopBackend &&
    `### 6. Payments through @card-jwe/shop-backend (Node adapter) against the sandbox direct (16 connections, every request used once)

Direct, forward only, the floor and through the handler take turns for ${shopBackend[0]?.rounds.length ?? 0} rounds, in an
order that turns each round (backwards every other round); the rows are the round with the handler's median ratio.
The floor is the least this bench knows for a shop back end that keeps the money rule: on the same Node adapter, the
idempotency key stored durably before the call and the answer before the reply, grouped commits on the same store,
one table; no checks, no order, no outbox. Placement \`separate\`: the sandbox on core 0, the shop, its database and
this load generator on core 1 (a payment service runs apart from the shop; the 0.7 target is judged here);
\`shared\`: all on both cores, each one's CPU taken from the others. CPU ms a payment cost each process: the sandbox (its RSA worker threads
included), the shop, this load generator, the rest of the machine (PostgreSQL's backends, the kernel); idle: the
share of both cores no one used.

${table(shopBackendRows, SHOP_BACKEND_COLUMNS)}

${syncLine(diskSync)}
As shoppers arrive (an open loop): payments sent at a steady rate whether or not earlier ones were answered, each
used once, latency counted from when a payment was due. A closed loop of 16 connections sends the next payment only
when one is answered, so a back end that commits in groups gets its payments in groups and the two cores take turns;
arrivals at a rate measure what each path can carry. A rate is held when every payment is answered 2xx and 99% within
${shopBackend[0]?.capacity.heldP99Ms} ms of when they were due (a path that falls behind builds a queue); runs of
${shopBackend[0]?.capacity.secondsPerRate} s, a rate not held when two in a row miss it, from 0.7 of direct's closed-loop pace up by
tenths, the paths in turns, then one halfway between the last held and the first not.

${table(capacityRows, CAPACITY_COLUMNS)}

${shopBackend.map((r) => `${r.store}, ${r.placement}${r.note ? `: ${r.note}` : ''}\n${targets(r.targets)}`).join('\n\n')}`,
]
const markdown = `${parts.filter(Boolean).join('\n\n')}\n`
writeFileSync(`${dir}benchmarks.md`, markdown)
process.stdout.write(`\n${markdown}\nwritten: test-results/bench/benchmarks.json, test-results/bench/benchmarks.md\n`)

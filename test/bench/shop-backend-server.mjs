#!/usr/bin/env node
/**
 * The shop back end as a shop runs it, for the bench: `createShopBackend` on the Node adapter
 * (`toNodeListener`, @hono/node-server), a ledger store from `storeFactories`, its own process (the
 * load generator does not share its event loop). Orders are numbers; each is 28.00 EUR. Prints
 * `shop: <url>` when ready. GET /bench/ledger?from=&to= says how many of those orders the ledger
 * holds as paid, through the store's own interface (so it means the same for every store).
 * POST /bench/forward is one extra hop's cost: the page's body parsed, signed and forwarded by the
 * same service client on plain node:http, with no ledger, no checks and no framework. POST
 * /bench/floor is the least a handler on the package's Node adapter can do and keep the money rule:
 * the body read through the adapter, the idempotency key stored durably before the call and the
 * answer after it (minimal-ledger.mjs), `{ resultCode }` answered; no checks, no order, no outbox.
 * Both answer 502 unless the payment was authorised, so the load counts it as failed.
 */
import { createServer } from 'node:http'
import { createServiceClient } from '@card-jwe/service-client'
import { connectServiceClient, createShopBackend, generateSecretKey, PAID_STATES } from '@card-jwe/shop-backend'
import { toNodeListener } from '@card-jwe/shop-backend/node'
import { newIdempotencyKey } from '../../packages/shop-backend/dist/lib/idempotency-key.js'
import { openMinimalLedger } from './minimal-ledger.mjs'
import { servicePaymentRequest } from './services.mjs'
import { storeFactories } from './store-factories.mjs'

const env = process.env
const storeName = env.BENCH_STORE ?? 'sqlite'
const factory = storeFactories[storeName]
if (!factory) throw new Error(`BENCH_STORE: one of ${Object.keys(storeFactories).join(', ')}`)
const store = await factory.open({ dataDir: env.BENCH_DATA_DIR })
let changesHeard = 0

const backend = createShopBackend({
  store,
  ...connectServiceClient({ baseUrl: env.SERVICE_URL }),
  secretKey: generateSecretKey(),
  findOrder: (id) =>
    /^\d+$/.test(id) ? { id: Number(id), reference: `bench-order-${id}`, amount: { currency: 'EUR', value: 2800 } } : undefined,
  onOrderChange: () => {
    changesHeard++
  },
  shopUrl: 'http://127.0.0.1:9',
  certificatePem: env.CERTIFICATE_PEM,
})
await backend.connect({ shopId: env.SHOP_ID, serviceSecret: env.SERVICE_SECRET, storeId: env.STORE_ID })

const forwarder = createServiceClient({ baseUrl: env.SERVICE_URL, credentials: { shopId: env.SHOP_ID, serviceSecret: env.SERVICE_SECRET } })

const minimalLedger = await openMinimalLedger(storeName, { dataDir: env.BENCH_DATA_DIR, postgresUrl: env.BENCH_POSTGRES_URL })

/** Sign and forward only: what one extra Node hop costs, without what the handler adds. */
function forward(req, res) {
  let text = ''
  req.setEncoding('utf8')
  req.on('data', (chunk) => {
    text += chunk
  })
  req.on('end', async () => {
    try {
      const page = JSON.parse(text)
      const answer = await forwarder.createPayment(env.STORE_ID, servicePaymentRequest(page), { idempotencyKey: newIdempotencyKey() })
      if (answer.resultCode !== 'Authorised') return void res.writeHead(502).end()
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ resultCode: answer.resultCode }))
    } catch (error) {
      res.writeHead(502).end(String(error?.name))
    }
  })
}

/** The floor as a fetch handler on the same Node adapter as the package's handler. */
const floorListener = toNodeListener({
  handles: () => true,
  async fetch(request) {
    const page = await request.json()
    const idempotencyKey = newIdempotencyKey()
    await minimalLedger.insertKey(idempotencyKey, page.orderId)
    const answer = await forwarder.createPayment(env.STORE_ID, servicePaymentRequest(page), { idempotencyKey })
    await minimalLedger.storeAnswer(idempotencyKey, page.orderId, JSON.stringify(answer))
    if (answer.resultCode !== 'Authorised') return new Response(null, { status: 502 })
    return new Response(JSON.stringify({ resultCode: answer.resultCode }), { headers: { 'content-type': 'application/json' } })
  },
})

async function ledger(from, to) {
  let paid = 0
  let attempts = 0
  for (let id = from; id < to; id++) {
    const rows = await store.listAttempts(String(id))
    attempts += rows.length
    if (rows.some((a) => PAID_STATES.has(a.state) && a.pspReference)) paid++
  }
  return { paid, attempts, changesHeard }
}

const listener = toNodeListener(backend, {
  fallback: (req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop')
    if (url.pathname === '/bench/forward') return forward(req, res)
    if (url.pathname === '/bench/floor') return floorListener(req, res)
    if (url.pathname !== '/bench/ledger') return void res.writeHead(404).end()
    ledger(Number(url.searchParams.get('from')), Number(url.searchParams.get('to'))).then(
      (counts) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts)),
      (error) => res.writeHead(500).end(String(error)),
    )
  },
})
const server = createServer(listener)
server.listen(0, '127.0.0.1', () => console.log(`shop: http://127.0.0.1:${server.address().port} (${storeName})`))
process.on('SIGTERM', () => {
  server.close()
  void Promise.all([store.close(), minimalLedger.close()]).then(() => process.exit(0))
})

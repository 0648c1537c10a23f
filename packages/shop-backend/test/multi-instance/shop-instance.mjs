/**
 * One shop instance for the multi-instance tests: the built package (`dist`, made by
 * `tsc -b packages/shop-backend` in the test's beforeAll) on node:http, its ledger in PostgreSQL.
 * Configured by environment; prints `READY <port> <poller holder>` once listening and
 * `CHANGE <json>` for each onOrderChange delivery. Every order id is a 28.00 EUR order.
 * `POST /test/modify {kind, orderId, amount?, requestId?}` is the merchant's click on capture,
 * refund or cancel; `POST /test/charge-saved-card {orderId, storedPaymentMethodId,
 * recurringProcessingModel}` is the shop's own code charging without the shopper (a renewal), and
 * `POST /test/saved-cards {shopperReference}` lists a shopper's cards, `POST /test/poll-now` reads the
 * service's feed once: each answers the result, or the refusal's status and code. An order id
 * starting `sub` is the order of SUBSCRIBER (a shopperReference); one starting `lines` has LINES
 * (`/test/modify` takes `lineItems` for a refund by line).
 * With SQLITE_PATH the ledger is that SQLite file instead.
 */
import { createServer } from 'node:http'
import { connectServiceClient, createShopBackend, httpStatusOf, ShopBackendError } from '../../dist/index.js'
import { toNodeListener } from '../../dist/node/index.js'
import { openPostgresStore } from '../../dist/postgres/index.js'
import { openSqliteStore } from '../../dist/sqlite/index.js'

/** The shopper of every `sub...` order: the one whose saved card a renewal charges. */
const SUBSCRIBER = 'multi-instance-subscriber'
/** Two teas at 7.00 and a mug at 14.00: 28.00, the lines of every `lines...` order. */
const LINES = [
  { id: 'tea', description: 'Green tea', quantity: 2, amountIncludingTax: 700, amountExcludingTax: 642, taxAmount: 58 },
  { id: 'mug', description: 'Mug', quantity: 1, amountIncludingTax: 1400, amountExcludingTax: 1157, taxAmount: 243 },
]
const env = process.env
const store = env.SQLITE_PATH ? openSqliteStore({ path: env.SQLITE_PATH }) : await openPostgresStore({ connectionString: env.DATABASE_URL })
const backend = createShopBackend({
  store,
  ...connectServiceClient({
    baseUrl: env.SERVICE_URL,
    deadlineMs: Number(env.DEADLINE_MS ?? 2_000),
    attemptTimeoutMs: Number(env.ATTEMPT_TIMEOUT_MS ?? 1_000),
    backoff: { initialMs: 50, maxMs: 100 },
  }),
  secretKey: Buffer.from(env.SECRET_KEY, 'base64'),
  findOrder: (id) => ({
    id,
    reference: `order-${id}`,
    amount: { currency: 'EUR', value: 2800 },
    ...(id.startsWith('sub') ? { shopperReference: SUBSCRIBER } : {}),
    ...(id.startsWith('lines') ? { lineItems: LINES } : {}),
  }),
  onOrderChange: (change) => {
    process.stdout.write(`CHANGE ${JSON.stringify(change)}\n`)
  },
  shopUrl: 'http://127.0.0.1:9',
  certificatePem: env.CERTIFICATE_PEM,
  log: (line) => process.stderr.write(`${line}\n`),
  ...(env.REPEAT_WINDOW_MS ? { repeatWindowMs: Number(env.REPEAT_WINDOW_MS) } : {}),
})
await backend.connect(JSON.parse(env.CREDENTIALS))
const listener = toNodeListener(backend)
/** The test's calls into the back end, as a shop's own code makes them. */
const TEST_CALLS = {
  '/test/modify': ({ kind, orderId, amount, requestId, lineItems }) =>
    backend[kind](orderId, { amount, requestId, ...(lineItems ? { lineItems } : {}) }),
  '/test/charge-saved-card': ({ orderId, storedPaymentMethodId, recurringProcessingModel }) =>
    backend.chargeSavedCard(orderId, { storedPaymentMethodId, recurringProcessingModel }),
  '/test/saved-cards': ({ shopperReference }) => backend.savedCards(shopperReference),
  '/test/poll-now': () => backend.poller.pollNow().then(() => ({ polled: true })),
}
const server = createServer((request, response) => {
  const call = TEST_CALLS[request.url]
  if (request.method !== 'POST' || !call) return listener(request, response)
  void testCall(call, request, response)
})

async function testCall(call, request, response) {
  const chunks = []
  for await (const chunk of request) chunks.push(chunk)
  const answer = (status, body) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  try {
    answer(200, await call(JSON.parse(Buffer.concat(chunks).toString())))
  } catch (error) {
    // The back end's refusals carry a code; their status comes from the back end's one table, as in a shop's own route.
    const status = error instanceof ShopBackendError ? httpStatusOf(error.code) : 500
    answer(status, { error: error.code ?? error.name, message: error.message, details: error.details })
  }
}
server.listen(0, '127.0.0.1', () => {
  if (env.POLL_INTERVAL_MS) backend.poller.start({ intervalMs: Number(env.POLL_INTERVAL_MS), leaseMs: Number(env.LEASE_MS) })
  process.stdout.write(`READY ${server.address().port} ${backend.poller.holder}\n`)
})
process.on('SIGTERM', () => {
  backend.poller.stop()
  server.close()
  setTimeout(() => process.exit(0), 200)
})

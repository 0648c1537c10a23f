/**
 * The shop a checkout test pays at: the real shop back end (SQLite ledger, node:http adapter) on a
 * loopback port, connected to a real sandbox as its ready-made shop. The test page runs on the
 * runner's origin, so this shop answers it with CORS, and sends each order's shopper back to the
 * origin that made it (the sandbox's 3-D Secure pages post their answer to that origin), or to the
 * `returnOrigin` the order was made with. Besides
 * the back end it serves the shop's own test routes: orders, the count of each checkout call, and
 * the bank's answer for a redirect payment.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestSandbox } from '@card-jwe/sandbox'
import { connectServiceClient, createShopBackend, generateSecretKey, type ShopOrder } from '@card-jwe/shop-backend'
import { toNodeListener } from '@card-jwe/shop-backend/node'
import { openSqliteStore } from '@card-jwe/shop-backend/sqlite'

/** The running test shop. */
export interface TestShop {
  readonly url: string
  close(): Promise<void>
}

const readBody = async (request: IncomingMessage): Promise<Record<string, unknown>> => {
  let text = ''
  for await (const chunk of request) text += chunk
  return text ? (JSON.parse(text) as Record<string, unknown>) : {}
}

export async function startTestShop(): Promise<TestShop> {
  /** Requests per path of the back end (POSTs by path, others as `GET /path`): "details posted once" is counted here. */
  const calls = new Map<string, number>()
  const count = (call: string) => calls.set(call, (calls.get(call) ?? 0) + 1)
  // The service's own details calls, from the sandbox's request log: what the back end sent on.
  const sandbox = await startTestSandbox({
    log(line) {
      if (/^POST \S*\/payment-details 200/.test(line)) count('service details')
      if (/^POST \S*\/payments \d{3}/.test(line)) count('service payments')
    },
  })
  const dir = await mkdtemp(join(tmpdir(), 'checkout-test-shop-'))
  const orders = new Map<string, ShopOrder & { origin: string }>()
  const backend = createShopBackend({
    store: openSqliteStore({ path: join(dir, 'payments.sqlite') }),
    ...connectServiceClient({ baseUrl: sandbox.baseUrl }),
    secretKey: generateSecretKey(),
    findOrder: (id) => orders.get(id),
    onOrderChange: () => {},
    shopUrl: 'http://127.0.0.1:9',
    returnUrl: (order) => `${orders.get(String(order.id))?.origin}/?orderId=${encodeURIComponent(String(order.id))}`,
    certificatePem: sandbox.certificatePem,
    serviceOrigin: new URL(sandbox.baseUrl).origin,
  })
  const { shopId, serviceSecret, storeId } = sandbox.readyMadeShop
  await backend.connect({ shopId, serviceSecret, storeId })
  const listener = toNodeListener(backend)
  let nextOrder = 1

  const server = createServer(async (request, response) => {
    response.setHeader('access-control-allow-origin', '*')
    const path = new URL(request.url ?? '/', 'http://shop').pathname
    const reply = (body: unknown) => {
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify(body))
    }
    if (request.method === 'OPTIONS') {
      response.writeHead(204, { 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'content-type' })
      response.end()
    } else if (path === '/test/orders') {
      // returnOrigin: where the order's shopper is sent back and 3-D Secure results are posted; the page's own by default.
      const { value = 1450, shopper, returnOrigin = request.headers.origin } = await readBody(request)
      const id = `order-${process.pid}-${nextOrder++}`
      const order = { id, reference: `ref-${id}`, amount: { currency: 'EUR', value: Number(value) } }
      // A signed-in shopper's order: the back end saves its card when the page asks (storePaymentMethod).
      // A shopper named by the test keeps their saved cards from order to order.
      const shopperReference = typeof shopper === 'string' ? shopper : shopper ? `shopper-${id}` : undefined
      orders.set(id, { ...order, ...(shopperReference && { shopperReference }), origin: String(returnOrigin) })
      reply(order)
    } else if (path === '/test/calls') {
      reply(Object.fromEntries(calls))
    } else if (path === '/test/bank') {
      // The shopper at the bank's page: approve, and the address the bank sends them back to.
      const { url, decision = 'approve' } = await readBody(request)
      const answer = await fetch(`${String(url)}/${String(decision)}`, { method: 'POST', redirect: 'manual' })
      reply({ returnUrl: answer.headers.get('location') })
    } else {
      count(request.method === 'POST' ? path : `${request.method} ${path}`)
      listener(request, response)
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await backend.poller.stop().catch(() => {})
      await sandbox.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

import { AsyncLocalStorage } from 'node:async_hooks'
import { existsSync } from 'node:fs'
import { once } from 'node:events'
import { mkdir } from 'node:fs/promises'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serve, type HttpBindings } from '@hono/node-server'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { parseJsonBody, redactPathForLog } from '@card-jwe/payment-validator'
import { connectServiceClient, createShopBackend, httpStatusOf, SHOP_SIDE_PATHS, ShopBackendError } from '@card-jwe/shop-backend'
import { mountShopBackend } from '@card-jwe/shop-backend/hono'
import { loadOrCreateSecretKey } from '@card-jwe/shop-backend/node'
import { openSqliteStore } from '@card-jwe/shop-backend/sqlite'
import { addAccountRoutes } from './account-api.js'
import { listOrders } from './admin-api.js'
import { CaptureTimingSchema, createCaptureTiming } from './capture-timing.js'
import { CATALOGUE, SHOP_CURRENCY } from './catalogue.js'
import { openShopDatabase } from './db.js'
import { createOrderStore } from './order-store.js'
import { errorJson, HttpError, json, MAX_BODY_BYTES } from './http-error.js'
import { importMapHashes } from './import-map-hashes.js'
import { applyOrderChange, CartSchema, createOrder, findOrderRecord, publicOrder } from './orders.js'
import { handleMerchantSetup, type MerchantSetupContext } from './merchant-setup-api.js'
import type { FailureThrottle } from './failure-throttle.js'
import { pagePolicy, servePages } from './pages.js'
import { readCspReport } from './csp-report.js'
import { addRenewalRoute } from './renewals.js'
import { fromOwnPages, requestGuard } from './request-guard.js'
import { addShopperSession, currentShopper, visibleOrder } from './shopper-session.js'

export interface ShopOptions {
  readonly dataDir: string
  /** The service: the sandbox's base URL, or the service's dev URL. */
  readonly serviceBaseUrl: string
  /** The processor's public certificate (PEM) the pages encrypt with. */
  readonly certificatePem: string
  readonly port?: number
  readonly pollIntervalMs?: number
  /** The built pages (apps/demo/dist/front). */
  readonly frontDir?: string
  readonly log?: (line: string) => void
  readonly now?: () => Date
  /** Quick start: register with a ready-made, onboarded store instead of walking the set-up wizard. */
  readonly readyMadeStore?: boolean
  /** The embedded sandbox's inbox URL, so the wizard can show the verification code. */
  readonly sandboxInboxUrl?: string
  /** How repeated wrong Basic credentials are slowed down (failure-throttle.ts); tests may pass their own. */
  readonly failureThrottle?: FailureThrottle
}

export interface RunningShop {
  readonly url: string
  /** The store the wizard chose or created (or the ready-made one); the checkout sells from it once onboarded. */
  readonly storeId: () => Promise<string | undefined>
  /** Runs the updated-payments poller once, now. */
  poll(): Promise<number>
  close(): Promise<void>
}

/**
 * A shopper waits on these calls: a frozen service is reported within about 11 s (the library's
 * default deadline is 15 s). Two attempts of 5 s fit, the second on the same idempotency key, so an
 * answer lost on the way is fetched rather than paid twice.
 */
export const SERVICE_CALL_DEADLINE_MS = 11_000
/** One attempt of a service call. */
export const SERVICE_ATTEMPT_TIMEOUT_MS = 5_000
/** How often the shop asks the service for changed payments (spec: "Events", polling only). */
export const DEFAULT_POLL_INTERVAL_MS = 5_000
/**
 * The poller's lease: the demo is one process, so after a crash its own restart takes the poller
 * over within this time (the package's default, 30 s, is for several instances).
 */
const POLLER_LEASE_MS = 10_000

const FRONT_DIR = fileURLToPath(new URL('../front', import.meta.url))

type Env = { Bindings: HttpBindings }

/**
 * The demo shop, a Hono app on `@hono/node-server`: its pages, catalogue, orders and admin API,
 * with `@card-jwe/shop-backend` mounted for the spec's shop-side endpoints and the checkout API.
 * The back end keeps the payment ledger (SQLite, in the data folder) and polls the service; the
 * shop's own orders table hears of each change. On first start the back end registers the shop.
 */
export async function startShop(options: ShopOptions): Promise<RunningShop> {
  const now = options.now ?? (() => new Date())
  const log = options.log ?? ((line: string) => process.stdout.write(`[shop] ${line}\n`))
  await mkdir(options.dataDir, { recursive: true })
  const db = openShopDatabase(join(options.dataDir, 'shop.sqlite'))
  const orders = createOrderStore(db)
  const captureTiming = createCaptureTiming(db)
  const secretKey = await loadOrCreateSecretKey(join(options.dataDir, 'secrets.key'))
  const ledger = openSqliteStore({ path: join(options.dataDir, 'payments.sqlite') })
  const serviceOrigin = new URL(options.serviceBaseUrl).origin
  const frontDir = options.frontDir ?? FRONT_DIR
  const policy = pagePolicy(serviceOrigin, existsSync(frontDir) ? importMapHashes(frontDir) : [])
  const serviceOptions = {
    baseUrl: options.serviceBaseUrl,
    deadlineMs: SERVICE_CALL_DEADLINE_MS,
    attemptTimeoutMs: SERVICE_ATTEMPT_TIMEOUT_MS,
  }
  // The wait before a wrong Basic pair's 401, per request: announced in x-failure-delay-ms.
  const failureDelay = new AsyncLocalStorage<{ ip: string; ms?: number }>()

  const app = new Hono<Env>()
  app.onError((error, c) => {
    if (error instanceof HttpError) return errorJson(error)
    // The back end's refusals in the shop's own routes (a renewal, a saved card): its code, status from its table.
    if (error instanceof ShopBackendError)
      return errorJson(new HttpError(httpStatusOf(error.code), error.code, error.message, error.details))
    log(`${c.req.method} ${redactPathForLog(c.req.path)} failed (${(error as Error)?.name})`)
    return errorJson(new HttpError(500, 'INTERNAL', 'internal error'))
  })
  app.notFound(() => errorJson(new HttpError(404, 'NOT_FOUND', 'no such page or endpoint')))
  app.use(async (c, next) => {
    await next()
    log(`${c.req.method} ${redactPathForLog(c.req.path)} ${c.res.status}`)
  })
  app.use(requestGuard)
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => errorJson(new HttpError(413, 'BODY_TOO_LARGE', `body larger than ${MAX_BODY_BYTES} bytes`)),
  })
  // Only POST bodies are read; any other method's body is left to the server to discard, as before.
  app.use('/api/*', (c, next) => (c.req.method === 'POST' ? limit(c, next) : next()))
  addShopperSession(app, db, now)
  for (const path of [SHOP_SIDE_PATHS.settings, SHOP_SIDE_PATHS.settingsBatch]) {
    app.use(path, async (c, next) => {
      const slot: { ip: string; ms?: number } = { ip: c.env.incoming.socket.remoteAddress ?? 'unknown' }
      await failureDelay.run(slot, next)
      if (slot.ms !== undefined && c.res.status === 401) c.res.headers.set('x-failure-delay-ms', String(slot.ms))
    })
  }

  // The port is known once the server listens: the back end (which needs the shop's URL) is made
  // and mounted then, before any request is routed.
  const server = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: '127.0.0.1' }) as Server
  // A port in use is an 'error' event, not a throw: once() rejects with it instead of the process ending.
  await once(server, 'listening').catch(async (error: unknown) => {
    // The listen error is the one to tell, whatever closing does.
    await ledger.close().catch(() => {})
    db.close()
    throw error
  })
  const shopUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  // A request Node cannot parse (an unknown method, a broken header) gets its 400 and the connection
  // ends gracefully, the rest of its body read and dropped: Node's own handler destroys the socket,
  // which on a kept-alive connection can reset it before the client reads any answer.
  server.on('clientError', (_error, socket) => {
    if (!socket.writable) return void socket.destroy()
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    setTimeout(() => socket.destroy(), 1_000).unref()
  })

  const backend = createShopBackend({
    store: ledger,
    ...connectServiceClient(serviceOptions),
    secretKey,
    findOrder: (id) => findOrderRecord(orders, id, visibleOrder),
    onOrderChange: (change) => applyOrderChange(orders, change, now()),
    shopUrl,
    certificatePem: options.certificatePem,
    serviceOrigin,
    paymentMethodsQuery: { country: 'NL', currency: SHOP_CURRENCY },
    // The package's admin routes (an order's payments, capture, refund, cancel, the problems to retry
    // or dismiss) at /api/admin, behind the same guard as the rest of the demo's admin.
    admin: { authorize: fromOwnPages((server.address() as AddressInfo).port) },
    now,
    log,
    sleep: (ms) => {
      const slot = failureDelay.getStore()
      const wait = options.failureThrottle && slot ? options.failureThrottle.failed(slot.ip) : ms
      if (slot) slot.ms = wait
      return new Promise((resolve) => setTimeout(resolve, wait))
    },
  })

  // The merchant set-up is the back end's: it calls the service as the shop and opens the checkout once onboarded.
  const setup: MerchantSetupContext = {
    setup: backend.merchantSetup,
    ...(options.sandboxInboxUrl ? { sandboxInboxUrl: options.sandboxInboxUrl } : {}),
  }
  /** One poll now, then the shop's orders hear of what it applied. */
  async function poll(): Promise<number> {
    const report = await backend.poller.pollNow()
    await backend.deliverChanges()
    if (report.leaseHeldBy) throw new HttpError(503, 'POLLER_BUSY', 'the poller is running elsewhere: try again in a moment')
    if (report.failed && !report.failed.includes('NOT_REGISTERED'))
      throw new HttpError(503, 'SERVICE_UNREACHABLE', 'The payment service could not be reached. Try again in a moment.')
    return report.applied
  }
  const bodyOf = async (request: Request) => new Uint8Array(await request.arrayBuffer())

  mountShopBackend(app, backend)
  app.get('/api/catalogue', () => json(200, CATALOGUE))
  app.post('/api/orders', async (c) => {
    const cart = parseJsonBody(await bodyOf(c.req.raw), CartSchema)
    if (!cart.ok) throw new HttpError(400, 'INVALID_CART', cart.error.message)
    return json(
      201,
      publicOrder(createOrder(orders, cart.value, now(), { shopperReference: currentShopper(), captureDelayHours: captureTiming.get() })),
    )
  })
  app.get('/api/orders/:id{[0-9]+}', (c) => {
    const id = c.req.param('id')
    const order = id.length <= 12 ? visibleOrder(orders.find(Number(id))) : undefined
    if (!order) throw new HttpError(404, 'ORDER_NOT_FOUND', 'no such order')
    return json(200, publicOrder(order))
  })
  app.post('/api/csp-report', async (c) => {
    const body = await bodyOf(c.req.raw)
    const violations = readCspReport(body)
    if (violations.length === 0) log(`CSP report unreadable (${body.length} bytes)`)
    for (const { directive, blocked } of violations) log(`CSP violation reported: ${directive} blocked ${blocked}`)
    return json(204, {})
  })
  const wizard = async (c: { req: { method: string; path: string; raw: Request } }) => {
    const body = c.req.method === 'POST' ? await bodyOf(c.req.raw) : new Uint8Array(0)
    const answer = await handleMerchantSetup(c.req.method, c.req.path, body, setup)
    if (answer === undefined) throw new HttpError(404, 'NOT_FOUND', 'no such set-up step')
    return json(200, answer)
  }
  app.all('/api/admin/setup', wizard)
  app.all('/api/admin/setup/*', wizard)
  app.get('/api/admin/orders', () => json(200, listOrders(orders)))
  addAccountRoutes(app, backend)
  addRenewalRoute(app, { db, orders, backend, now, captureDelayHours: () => captureTiming.get() })
  app.get('/api/admin/capture-timing', () => json(200, { captureDelayHours: captureTiming.get() }))
  app.post('/api/admin/capture-timing', async (c) => {
    const body = parseJsonBody(await bodyOf(c.req.raw), CaptureTimingSchema)
    if (!body.ok) throw new HttpError(422, 'INVALID_CAPTURE_TIMING', body.error.message)
    captureTiming.set(body.value.captureDelayHours)
    return json(200, { captureDelayHours: captureTiming.get() })
  })
  app.post('/api/admin/poll', async () => json(200, { applied: await poll() }))
  app.get('*', servePages(frontDir, policy))

  // First start: the back end makes and seals a Basic pair and registers; the service pushes service_secret.
  const registration = await backend.register(options.readyMadeStore ? { readyMadeStore: true } : {})
  if (!registration.alreadyRegistered) log(`registered with the payment service as ${registration.shopId}`)
  if (!(await ledger.getSetting('service_secret'))) throw new Error('registration: the service did not push service_secret')
  // Changes a crash left undelivered reach the orders now; then the poller runs on its timer.
  await backend.deliverChanges()
  backend.poller.start({ intervalMs: options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, leaseMs: POLLER_LEASE_MS })

  return {
    url: shopUrl,
    storeId: async () => (await backend.merchantSetup.state()).storeId ?? undefined,
    poll,
    async close() {
      await backend.poller.stop()
      // Connections a browser keeps open (busy or kept alive) are ended now: server.close() alone
      // waits for them, and a page left open held a test's shop open past its hook timeout.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
      await ledger.close()
      db.close()
    },
  }
}

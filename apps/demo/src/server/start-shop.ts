import { existsSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseJsonBody, redactPathForLog } from '@card-jwe/payment-validator'
import { createServiceClient, ServiceError, ServiceUnreachableError, type ServiceClient } from '@card-jwe/service-client'
import { listOrders, modifyOrder } from './admin-api.js'
import { CATALOGUE } from './catalogue.js'
import { createChangeStore } from './change-store.js'
import { openShopDatabase } from './db.js'
import { createOrderStore } from './order-store.js'
import { HttpError, pagePolicy, readBody, sendJson } from './http.js'
import { importMapHashes } from './import-map-hashes.js'
import { CartSchema, createOrder, publicOrder } from './orders.js'
import { postPayment, postPaymentDetails, type PaymentsApiContext } from './payments-api.js'
import { DEFAULT_POLL_INTERVAL_MS, pollOnce } from './poller.js'
import { openSecretBox } from './secret-box.js'
import { openSettings } from './settings.js'
import { handleMerchantSetup, ONBOARDED_STATUS, setupState, type MerchantSetupContext } from './merchant-setup-api.js'
import { createFailureThrottle, type FailureThrottle } from './failure-throttle.js'
import { handleShopEndpoint } from './shop-endpoints.js'
import { serveStatic } from './static-files.js'
import { readCspReport } from './csp-report.js'
import { checkRequest } from './request-guard.js'

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
  /** The store the checkout sells from, once the wizard chose or created one (or the ready-made one). */
  readonly storeId: () => string | undefined
  /** Runs the updated-payments poller once, now. */
  poll(): Promise<number>
  close(): Promise<void>
}

const headerOf = (request: IncomingMessage, name: string) =>
  typeof request.headers[name] === 'string' ? (request.headers[name] as string) : undefined

/**
 * A shopper waits on these calls: a frozen service is reported within about 11 s (the library's
 * default deadline is 15 s). Two attempts of 5 s fit, the second on the same idempotency key, so an
 * answer lost on the way is fetched rather than paid twice.
 */
export const SERVICE_CALL_DEADLINE_MS = 11_000
/** One attempt of a service call. */
export const SERVICE_ATTEMPT_TIMEOUT_MS = 5_000
/** The checkout's configuration asks for payment methods on page load: an outage is said within 5 s. */
export const CONFIG_CALL_DEADLINE_MS = 5_000

const FRONT_DIR = fileURLToPath(new URL('../front', import.meta.url))

/**
 * The demo shop: pages, its payment API, the spec's shop-side endpoints, and an admin API. On first
 * start it generates its Basic pair and registers with the service, which pushes service_secret.
 */
export async function startShop(options: ShopOptions): Promise<RunningShop> {
  const now = options.now ?? (() => new Date())
  const log = options.log ?? ((line: string) => process.stdout.write(`[shop] ${line}\n`))
  await mkdir(options.dataDir, { recursive: true })
  const db = openShopDatabase(join(options.dataDir, 'shop.sqlite'))
  const settings = openSettings(db, openSecretBox(join(options.dataDir, 'secrets.key')))
  const orders = createOrderStore(db)
  const changes = createChangeStore(db)
  const serviceOrigin = new URL(options.serviceBaseUrl).origin
  const throttle = options.failureThrottle ?? createFailureThrottle()
  const frontDir = options.frontDir ?? FRONT_DIR
  const policy = pagePolicy(serviceOrigin, existsSync(frontDir) ? importMapHashes(frontDir) : [])
  let shopUrl = ''
  let serviceClient: ServiceClient | undefined

  const client = () => {
    if (!serviceClient) throw new HttpError(503, 'NOT_REGISTERED', 'the shop is not registered with the payment service yet')
    return serviceClient
  }
  // One poll at a time: the timer and the admin page's button share this chain.
  let polling: Promise<number> = Promise.resolve(0)
  const poll = () => (polling = polling.catch(() => 0).then(() => pollOnce({ orders, changes }, client(), now)))
  const setup: MerchantSetupContext = { settings, client, ...(options.sandboxInboxUrl ? { sandboxInboxUrl: options.sandboxInboxUrl } : {}) }
  /** The checkout sells only from an onboarded store (spec: "Onboarding"). */
  const connection = () => {
    const state = setupState(setup)
    if (!state.checkoutReady)
      throw new HttpError(409, 'CHECKOUT_NOT_READY', 'the shop has no onboarded store yet: connect the account on the admin page')
    return { client: client(), storeId: state.storeId! }
  }
  const payments: PaymentsApiContext = {
    orders,
    client: connection,
    get shopUrl() {
      return shopUrl
    },
    now,
  }

  /** What the checkout page needs: the certificate, and whether and with which methods it may sell. */
  async function checkoutConfig() {
    const state = setupState(setup)
    let paymentMethods: string[] = []
    let serviceReachable = true
    if (state.checkoutReady) {
      const methods = await client()
        .checkoutPaymentMethods(state.storeId!, { country: 'NL', currency: 'EUR' }, { deadlineMs: CONFIG_CALL_DEADLINE_MS })
        // A wrong argument (TypeError) is the shop's bug and stays one; only the service's failures are "unreachable".
        .catch((error: unknown) =>
          error instanceof ServiceError || error instanceof ServiceUnreachableError ? undefined : Promise.reject(error),
        )
      // Said, not hidden: an empty payment section with no message is a dead end for the shopper.
      serviceReachable = methods !== undefined
      paymentMethods = methods?.paymentMethods?.map((m) => m.type) ?? []
    }
    return { certificatePem: options.certificatePem, serviceOrigin, checkoutReady: state.checkoutReady, serviceReachable, paymentMethods }
  }

  async function route(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const method = request.method ?? 'GET'
    checkRequest(request, path)
    if (await handleShopEndpoint(request, response, path, settings, throttle)) return
    if (method === 'GET' && (await serveStatic(frontDir, path, response, policy))) return
    const body = method === 'POST' ? await readBody(request) : Buffer.alloc(0)
    const orderMatch = /^\/api\/orders\/(\d{1,12})$/.exec(path)
    const adminMatch = /^\/api\/admin\/orders\/(\d{1,12})\/(capture|refund|cancel)$/.exec(path)
    if (method === 'GET' && path === '/api/config') return sendJson(response, 200, await checkoutConfig())
    if (path === '/api/admin/setup' || path.startsWith('/api/admin/setup/')) {
      const answer = await handleMerchantSetup(method, path, body, setup)
      if (answer === undefined) throw new HttpError(404, 'NOT_FOUND', 'no such set-up step')
      return sendJson(response, 200, answer)
    }
    if (method === 'GET' && path === '/api/catalogue') return sendJson(response, 200, CATALOGUE)
    if (method === 'POST' && path === '/api/orders') {
      const cart = parseJsonBody(body, CartSchema)
      if (!cart.ok) throw new HttpError(400, 'INVALID_CART', cart.error.message)
      return sendJson(response, 201, publicOrder(createOrder(orders, cart.value, now())))
    }
    if (method === 'GET' && orderMatch) {
      const order = orders.find(Number(orderMatch[1]))
      if (!order) throw new HttpError(404, 'ORDER_NOT_FOUND', 'no such order')
      return sendJson(response, 200, publicOrder(order))
    }
    if (method === 'POST' && path === '/api/payments') return sendJson(response, 200, await postPayment(body, request, payments))
    if (method === 'POST' && path === '/api/payment-details') return sendJson(response, 200, await postPaymentDetails(body, payments))
    if (method === 'POST' && path === '/api/csp-report') {
      const violations = readCspReport(body)
      if (violations.length === 0) log(`CSP report unreadable (${body.length} bytes)`)
      for (const { directive, blocked } of violations) log(`CSP violation reported: ${directive} blocked ${blocked}`)
      return sendJson(response, 204, {})
    }
    if (method === 'GET' && path === '/api/admin/orders') return sendJson(response, 200, listOrders(orders))
    if (method === 'POST' && path === '/api/admin/poll') return sendJson(response, 200, { applied: await poll() })
    if (method === 'POST' && adminMatch)
      return sendJson(
        response,
        200,
        await modifyOrder(orders, client(), Number(adminMatch[1]), adminMatch[2]!, body, headerOf(request, 'idempotency-key')),
      )
    throw new HttpError(404, 'NOT_FOUND', 'no such page or endpoint')
  }

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://shop').pathname
    route(request, response, path)
      .catch((error: unknown) => {
        const known = error instanceof HttpError ? error : new HttpError(500, 'INTERNAL', 'internal error')
        if (!(error instanceof HttpError)) log(`${request.method} ${redactPathForLog(path)} failed (${(error as Error)?.name})`)
        if (!response.headersSent)
          sendJson(response, known.status, {
            error: known.code,
            message: known.message,
            ...(known.details ? { details: known.details } : {}),
          })
      })
      .finally(() => log(`${request.method} ${redactPathForLog(path)} ${response.statusCode}`))
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  shopUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  // First start: a strong Basic pair of our own, then registration; the service pushes service_secret.
  if (!settings.get('basic_key')) {
    settings.set('basic_key', randomBytes(24).toString('base64url'))
    settings.set('basic_secret', randomBytes(32).toString('base64url'))
  }
  let shopId = settings.get('shop_id')
  if (!shopId || !settings.get('service_secret')) {
    const registration = await createServiceClient({ baseUrl: options.serviceBaseUrl }).register({
      shopUrl,
      key: settings.get('basic_key')!,
      secret: settings.get('basic_secret')!,
      ...(options.readyMadeStore ? { readyMadeStore: true } : {}),
    })
    settings.set('shop_id', registration.shopId)
    if (registration.storeId) {
      settings.set('store_id', registration.storeId)
      settings.set('onboarding_status', ONBOARDED_STATUS)
      settings.set('ready_made_store', 'yes')
    }
    shopId = registration.shopId
    log(`registered with the payment service as ${shopId}`)
  }
  serviceClient = createServiceClient({
    baseUrl: options.serviceBaseUrl,
    credentials: { shopId, serviceSecret: settings.get('service_secret')! },
    deadlineMs: SERVICE_CALL_DEADLINE_MS,
    attemptTimeoutMs: SERVICE_ATTEMPT_TIMEOUT_MS,
  })
  const timer = setInterval(
    () => void poll().catch((e: unknown) => log(`poll failed (${(e as Error)?.name})`)),
    options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
  )

  return {
    url: shopUrl,
    storeId: () => setupState(setup).storeId ?? undefined,
    poll,
    async close() {
      clearInterval(timer)
      await new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      db.close()
    },
  }
}

import { completeBrowserInfo } from '@card-jwe/browser-info/server'
import {
  buildPaymentDetailsRequest,
  buildPaymentRequest,
  checkSubmission,
  DEFAULT_MAX_BODY_BYTES,
  DetailsSubmissionSchema,
  parseJsonBody,
  PaymentSubmissionSchema,
  type OrderRecord,
} from '@card-jwe/payment-validator'
import { ShopBackendError } from './errors.js'
import { createPoller, type Poller } from './create-poller.js'
import { createMerchantSetup, type MerchantSetup } from './merchant-setup.js'
import {
  type PaymentService,
  PaymentServiceError,
  type RegisterShop,
  type SavedCard,
  type SavedCardRemoval,
  type ServiceCredentials,
  type ShopService,
  type StoredCard,
} from './payment-service.js'
import { createSecretBox, type SecretBox } from './secret-box.js'
import type { LedgerStore, ModificationKind, OrderChange } from './store.js'
import { readSealed, SETTING, writeSettings, type BackendContext } from './lib/context.js'
import { createFailureThrottle, type FailureThrottleOptions } from './lib/failure-throttle.js'
import { fingerprintOf } from './lib/fingerprint.js'
import { newIdempotencyKey } from './lib/idempotency-key.js'
import { errorResponse, json, readBody, requireJson } from './lib/http.js'
import { createKeyedLock } from './lib/keyed-lock.js'
import { submitDetails, submitPayment } from './lib/ledger.js'
import { type ErasureRequests, eraseShopperData, removeSavedCard, savedCards } from './lib/shopper-data.js'
import { type ResealReport, resealSecrets } from './lib/reseal-secrets.js'
import { modifyOrder, type ModificationResult, type ModifyOptions } from './lib/modify.js'
import { createOutbox, type OutboxTicket } from './lib/outbox.js'
import { recordReadyMadeStore } from './lib/setup-state.js'
import { SHOP_SIDE_PATHS, shopSideEndpoint } from './lib/shop-endpoints.js'
import { storeFailureOf, storeUnavailable, unlessStoreUnavailable } from './lib/store-failure.js'

/** The shop's own order, as the back end needs it: the only source of amount, currency and reference. */
export type ShopOrder = OrderRecord

/** Paths of the checkout API the page calls. */
export interface CheckoutPaths {
  /** GET: certificate and payment methods. Default `/api/config`. */
  readonly config: string
  /** POST: the page's submission. Default `/api/payments`. */
  readonly payments: string
  /** POST: after a redirect or a 3-D Secure step. Default `/api/payment-details`. */
  readonly paymentDetails: string
}

/** Where the page's calls go unless `paths` says otherwise. */
export const DEFAULT_CHECKOUT_PATHS: CheckoutPaths = Object.freeze({
  config: '/api/config',
  payments: '/api/payments',
  paymentDetails: '/api/payment-details',
})

/** Options of {@link createShopBackend}. */
export interface ShopBackendOptions {
  /** The payment ledger's storage (`@card-jwe/shop-backend/sqlite`, or another {@link LedgerStore}). */
  readonly store: LedgerStore
  /**
   * The signed service port once the shop's credentials are known (`connectServiceClient(...).service`,
   * which has the payment and the merchant set-up calls). A factory of your own may return only a
   * {@link PaymentService}: the set-up's calls are optional, and `merchantSetup` then throws a TypeError.
   */
  readonly service: (credentials: ServiceCredentials) => ShopService
  /** The unsigned registration call (`connectServiceClient(...).registerShop`); needed by `register` only. */
  readonly registerShop?: RegisterShop
  /** 32 bytes (or an AES-GCM CryptoKey) that seal the secrets at rest; keep them outside the store. */
  readonly secretKey: Uint8Array | CryptoKey
  /** While rotating `secretKey`: the keys before it, which still open what they sealed (see `resealSecrets`). */
  readonly previousSecretKeys?: ReadonlyArray<Uint8Array | CryptoKey>
  /** The shop's order by id; undefined when there is none. */
  readonly findOrder: (orderId: string) => Promise<ShopOrder | undefined> | ShopOrder | undefined
  /** Hears every change of an order's payment, after the commit; a throw means "tell me again later". */
  readonly onOrderChange: (change: OrderChange) => Promise<void> | void
  /**
   * The shop's public origin: the service calls its settings endpoints there, shoppers return there,
   * and the checkout page must be served from it (3-D Secure frames post their result to it).
   */
  readonly shopUrl: string
  /** Where the shopper returns after a redirect; default `${shopUrl}/?orderId=<id>`. */
  readonly returnUrl?: (order: ShopOrder) => string
  /**
   * Where the onboarding return sends the merchant, after it re-checked the onboarding status (best
   * effort); default `/admin.html?onboarding=returned`.
   */
  readonly adminUrl?: string
  /** The processor's certificate (PEM) the page encrypts with; in the checkout config. */
  readonly certificatePem?: string
  /** The service's origin, in the checkout config (the page's CSP and 3-D Secure frames need it). */
  readonly serviceOrigin?: string
  /** The checkout-payment-methods query; default `{country: 'NL', currency: <none>}`. */
  readonly paymentMethodsQuery?: {
    /** ISO 3166 country of the shoppers; default NL. */
    readonly country?: string
    /** ISO 4217 currency of the orders. */
    readonly currency?: string
  }
  /** Where the checkout API is served; default {@link DEFAULT_CHECKOUT_PATHS}. */
  readonly paths?: Partial<CheckoutPaths>
  /** Default 64 KiB. */
  readonly maxBodyBytes?: number
  /**
   * An identical non-card submission within this time is a repeat (a double click), as is a capture,
   * refund or cancel without requestId asking for what the one before it asked for; default 15 s.
   */
  readonly repeatWindowMs?: number
  /** How repeated wrong Basic credentials are slowed. */
  readonly failureThrottle?: FailureThrottleOptions
  /** The clock; default the real one. */
  readonly now?: () => Date
  /** Log lines name codes and ids, never card data or secrets. Default: none. */
  readonly log?: (line: string) => void
  /** Test hook for waits (the throttle's, and a payment-details call waiting on another window's). */
  readonly sleep?: (ms: number) => Promise<void>
}

/** Per request: the shopper's address (for 3-D Secure's browser data and the Basic throttle). */
export interface RequestInfo {
  /** The client's address as the adapter sees it (behind a proxy: the one the proxy vouches for). */
  readonly ip?: string | undefined
}

/** The result of {@link ShopBackend.register}. */
export interface Registration {
  /** The shop's id at the service. */
  readonly shopId: string
  /** The store the checkout sells from, when there is one (a ready-made store). */
  readonly storeId?: string | undefined
  /** True when the shop was registered before and nothing was sent. */
  readonly alreadyRegistered: boolean
}

/** See {@link createShopBackend}. */
export interface ShopBackend {
  /** Web-standard handler: the shop-side endpoints and the checkout API; 404 JSON for other paths. */
  fetch(request: Request, info?: RequestInfo): Promise<Response>
  /** Whether `fetch` serves this path (for frameworks that mount it beside their own routes). */
  handles(pathname: string): boolean
  /** Every path `fetch` serves. */
  readonly paths: readonly string[]
  /** The updated-payments poller: start it once the shop is registered. */
  readonly poller: Poller
  /** Captures the order's authorised payment: what is left to capture, unless `options.amount`. */
  capture(orderId: string | number, options?: ModifyOptions): Promise<ModificationResult>
  /** Refunds the order's captured money: all not refunded yet, unless `options.amount`. */
  refund(orderId: string | number, options?: ModifyOptions): Promise<ModificationResult>
  /** Cancels the order's authorised, uncaptured payment. */
  cancel(orderId: string | number, options?: ModifyOptions): Promise<ModificationResult>
  /** A shopper's saved cards at the service (id, brand, last four): what `removeSavedCard` takes. */
  savedCards(shopperReference: string): Promise<StoredCard[]>
  /** Removes a shopper's saved card at the service. */
  removeSavedCard(card: SavedCard): Promise<SavedCardRemoval>
  /** Asks the service to erase the shopper's data of each payment of the order. */
  eraseShopperData(orderId: string | number): Promise<ErasureRequests>
  /** Seals again under `secretKey` the secrets a key in `previousSecretKeys` sealed (a rotation's last step). */
  resealSecrets(): Promise<ResealReport>
  /**
   * Registers the shop once (safe to repeat: a registered shop sends nothing): makes and seals a
   * strong Basic pair, calls registration; the service reads the settings and pushes service_secret.
   * `fetch` must already answer at `shopUrl`.
   */
  register(options?: { readonly readyMadeStore?: boolean }): Promise<Registration>
  /** Uses credentials obtained elsewhere (a ready-made shop, a migration); the secret is sealed. */
  connect(credentials: ServiceCredentials & { readonly storeId: string }): Promise<void>
  /** Sets the store the checkout sells from ('' closes it); `merchantSetup` does this itself. */
  useStore(storeId: string): Promise<void>
  /** The merchant's set-up (account, contractor, store, onboarding), as calls for the shop's admin. */
  readonly merchantSetup: MerchantSetup
  /** Delivers due order changes now (also runs after every write and every poll). */
  deliverChanges(): Promise<void>
}

/** How long the shop's id, secret and store id stay in memory between reads of the store. */
export const CONNECTION_CACHE_MS = 1_000

/** The lease an instance holds while it registers the shop (the `leases` table, beside the poller's). */
export const REGISTRATION_LEASE = 'shop-registration'
// Longer than one registration takes (the service calls the shop's two settings endpoints, 10 s each
// at most): an instance that dies while registering holds the others up this long, no longer.
const REGISTRATION_LEASE_MS = 60_000
/** How often an instance waiting for another's registration looks again. */
const REGISTRATION_WAIT_MS = 250
/** How long `register()` starts its registration again after an unknown outcome (each try up to 25 s). */
const REGISTRATION_RETRY_MS = 45_000
/** Between those repeats. */
const REGISTRATION_REPEAT_WAIT_MS = 500

const randomText = (bytes: number) => {
  const raw = crypto.getRandomValues(new Uint8Array(bytes))
  return Array.from(raw, (b) => b.toString(16).padStart(2, '0')).join('')
}

/**
 * The spec's shop back end as a Web-standard handler plus the ledger, the poller and capture,
 * refund and cancel by order. Framework-neutral: mount `fetch` in Hono (`/hono`), node:http
 * (`/node`) or anything that speaks Request and Response.
 */
export function createShopBackend(options: ShopBackendOptions): ShopBackend {
  const now = options.now ?? (() => new Date())
  const log = options.log ?? (() => {})
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const paths: CheckoutPaths = { ...DEFAULT_CHECKOUT_PATHS, ...options.paths }
  const shopUrl = options.shopUrl.replace(/\/+$/, '')
  const throttle = createFailureThrottle(options.failureThrottle)
  const basicCheckLock = createKeyedLock()
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const repeatWindowMs = options.repeatWindowMs ?? 15_000
  const withLock = createKeyedLock()
  let boxPromise: Promise<SecretBox> | undefined
  let connected: { readonly secret: string; readonly shopId: string; readonly service: ShopService } | undefined
  let cachedConnection: { readonly until: number; readonly value: Promise<{ service: PaymentService; storeId: string }> } | undefined
  /** After a local write of the shop's id, secret or store: the next call reads them again. */
  const forgetConnection = () => {
    cachedConnection = undefined
    connected = undefined
  }

  /** The port signed with the shop's id and unsealed secret, read from the store; no store needed. */
  async function signedService(): Promise<ShopService> {
    const shopId = await options.store.getSetting(SETTING.shopId)
    const secret = await readSealed(context, SETTING.serviceSecret)
    if (!shopId || !secret) throw new ShopBackendError(503, 'NOT_REGISTERED', 'the shop is not registered with the payment service yet')
    if (!connected || connected.secret !== secret || connected.shopId !== shopId)
      connected = { secret, shopId, service: options.service({ shopId, serviceSecret: secret }) }
    return connected.service
  }

  /** The signed port and the store the checkout sells from. */
  async function readConnection(): Promise<{ service: PaymentService; storeId: string }> {
    const service = await signedService()
    const storeId = await options.store.getSetting(SETTING.storeId)
    if (!storeId)
      throw new ShopBackendError(503, 'NOT_REGISTERED', 'the shop is not registered with the payment service yet, or has no store')
    return { service, storeId }
  }

  const context: BackendContext = {
    store: options.store,
    now,
    log,
    findOrder: async (orderId) => options.findOrder(orderId),
    withLock,
    box: () => (boxPromise ??= createSecretBox(options.secretKey, { previousKeys: options.previousSecretKeys ?? [] })),
    // Kept for CONNECTION_CACHE_MS and shared by concurrent requests: three reads and an unsealing per
    // request cost more than the payment's own writes. Local writes forget it at once; another
    // instance's registration or store change is seen within CONNECTION_CACHE_MS.
    connection() {
      const at = Date.now()
      if (!cachedConnection || at >= cachedConnection.until) {
        const value = readConnection()
        cachedConnection = { until: at + CONNECTION_CACHE_MS, value }
        value.catch(() => {
          if (cachedConnection?.value === value) cachedConnection = undefined
        })
      }
      return cachedConnection.value
    },
    service: signedService,
    // Outside a request (none queue so today) the poller's drain delivers what was queued.
    changeQueued: () => {},
    drainOutbox: () => outbox.drain(),
    pollNow: () => poller.pollNow(),
    sleep,
  }
  async function useStore(storeId: string): Promise<void> {
    await options.store.putSetting(SETTING.storeId, storeId)
    forgetConnection()
  }
  const merchantSetup = createMerchantSetup({ store: options.store, service: signedService, useStore, log })
  const outbox = createOutbox(options.store, options.onOrderChange, now, log)
  /**
   * The context for one payments or details request: the changes it queues are its own, and the shop
   * hears them before the request answers (`ticket.deliver`, thrown or not); their "delivered" marks
   * commit later, off the answer's path.
   */
  const forRequest = (ticket: OutboxTicket): BackendContext => ({ ...context, changeQueued: ticket.queued })
  const poller = createPoller(context)

  async function orderOf(orderId: string | number): Promise<OrderRecord> {
    const order = await context.findOrder(String(orderId))
    if (!order) throw new ShopBackendError(404, 'ORDER_NOT_FOUND', 'orderId: no such order')
    return order
  }

  /** POST payments (spec: Front-end contract 3, 4, 7). */
  async function payments(request: Request, info: RequestInfo): Promise<Response> {
    requireJson(request)
    const parsed = parseJsonBody(await readBody(request, maxBodyBytes), PaymentSubmissionSchema, { maxBytes: maxBodyBytes })
    if (!parsed.ok) throw new ShopBackendError(400, 'INVALID_BODY', parsed.error.message, parsed.error.issues)
    const order = await orderOf(parsed.value.orderId)
    const checked = checkSubmission(parsed.value, order)
    // Field and rule only: the order's own values are not the page's business either.
    if (!checked.ok) {
      const named = checked.problems.map((p) => `${p.kind === 'mismatch' ? p.field : p.path} (${p.rule})`)
      throw new ShopBackendError(
        422,
        'ORDER_MISMATCH',
        `the submission does not match the order: ${named.join(', ')}`,
        checked.problems.map((p) => (p.kind === 'mismatch' ? { kind: p.kind, field: p.field, rule: p.rule } : p)),
      )
    }
    const { service, storeId } = await context.connection()
    const submission = checked.submission
    const fingerprint = fingerprintOf(submission.paymentMethod)
    const methodType = String(submission.paymentMethod.type)
    const ticket = outbox.ticket()
    const result = await withLock(String(order.id), () =>
      submitPayment(forRequest(ticket), order, { methodType, fingerprint, repeatWindowMs }, (attempt) => {
        // iDEAL and other redirect methods send no browserInfo: nothing to complete then.
        const completed = submission.browserInfo
          ? completeBrowserInfo(submission.browserInfo, { headers: request.headers, ip: info.ip })
          : undefined
        const body = buildPaymentRequest({
          order,
          submission,
          config: { returnUrl: options.returnUrl ?? ((o) => `${shopUrl}/?orderId=${encodeURIComponent(String(o.id))}`) },
          ...(completed ? { browserInfo: completed.browserInfo } : {}),
          ...(completed?.shopperIP ? { shopperIP: completed.shopperIP } : {}),
        })
        return service.createPayment(storeId, body, { idempotencyKey: attempt.idempotencyKey })
      }),
    ).finally(ticket.deliver)
    return json(200, result)
  }

  /** POST payment-details: after a redirect or a 3-D Secure step. */
  async function paymentDetails(request: Request): Promise<Response> {
    requireJson(request)
    const parsed = parseJsonBody(await readBody(request, maxBodyBytes), DetailsSubmissionSchema, { maxBytes: maxBodyBytes })
    if (!parsed.ok) throw new ShopBackendError(400, 'INVALID_BODY', parsed.error.message, parsed.error.issues)
    const order = await orderOf(parsed.value.orderId)
    const { service, storeId } = await context.connection()
    const fingerprint = fingerprintOf(parsed.value.details)
    const ticket = outbox.ticket()
    const result = await withLock(String(order.id), () =>
      submitDetails(forRequest(ticket), order, fingerprint, (_attempt, idempotencyKey) =>
        service.paymentDetails(storeId, buildPaymentDetailsRequest(order, parsed.value), { idempotencyKey }),
      ),
    ).finally(ticket.deliver)
    return json(200, result)
  }

  /** GET checkout config: the certificate, and whether and with which methods the page may sell. */
  async function checkoutConfig(): Promise<Response> {
    let paymentMethods: string[] = []
    let serviceReachable = true
    let checkoutReady = true
    try {
      const { service, storeId } = await context.connection()
      const methods = await service.checkoutPaymentMethods(storeId, options.paymentMethodsQuery ?? { country: 'NL' })
      paymentMethods = (methods.paymentMethods ?? []).map((m) => String(m.type))
    } catch (error) {
      if (error instanceof ShopBackendError && error.code === 'NOT_REGISTERED') checkoutReady = false
      else if ((error as Error)?.name === 'PaymentServiceError') serviceReachable = false
      else throw error
    }
    return json(200, {
      ...(options.certificatePem ? { certificatePem: options.certificatePem } : {}),
      ...(options.serviceOrigin ? { serviceOrigin: options.serviceOrigin } : {}),
      checkoutReady,
      serviceReachable,
      paymentMethods,
    })
  }

  const checkoutRoutes: Record<string, { method: string; run: (request: Request, info: RequestInfo) => Promise<Response> }> = {
    [paths.config]: { method: 'GET', run: () => checkoutConfig() },
    [paths.payments]: { method: 'POST', run: payments },
    [paths.paymentDetails]: { method: 'POST', run: (request) => paymentDetails(request) },
  }
  const allPaths = Object.freeze([...Object.values(SHOP_SIDE_PATHS), ...Object.keys(checkoutRoutes)])

  async function handle(request: Request, info: RequestInfo = {}): Promise<Response> {
    const path = new URL(request.url).pathname
    try {
      const shopSide = await shopSideEndpoint(context, request, path, info.ip, {
        throttle,
        checkLock: basicCheckLock,
        adminUrl: options.adminUrl ?? '/admin.html?onboarding=returned',
        maxBodyBytes,
        sleep,
        secretChanged: forgetConnection,
        onboardingReturned: () => merchantSetup.onboardingReturned(),
      })
      if (shopSide) return shopSide
      const route = checkoutRoutes[path]
      if (!route) throw new ShopBackendError(404, 'NOT_FOUND', 'path: not served by the shop back end')
      if (request.method !== route.method)
        return errorResponse(new ShopBackendError(405, 'METHOD_NOT_ALLOWED', `method: ${route.method} only`), { allow: route.method })
      return await route.run(request, info)
    } catch (error) {
      if (error instanceof ShopBackendError) return errorResponse(error)
      // The error's code or kind only: a foreign message could quote request data.
      const failure = storeFailureOf(error)
      if (failure.unavailable) {
        log(`${request.method} ${path}: the ledger's store could not be reached (${failure.code})`)
        return errorResponse(storeUnavailable())
      }
      log(`${request.method} ${path} failed (${failure.code})`)
      return errorResponse(new ShopBackendError(500, 'INTERNAL', 'internal error'))
    }
  }

  /** The registration stored (shop id and its service secret), if the shop has one. */
  const registered = async (): Promise<Registration | undefined> => {
    const shopId = await options.store.getSetting(SETTING.shopId)
    if (!shopId || !(await readSealed(context, SETTING.serviceSecret))) return undefined
    return { shopId, storeId: await options.store.getSetting(SETTING.storeId), alreadyRegistered: true }
  }

  /** The registration call itself, by the instance holding the registration lease. */
  const registerOnce = async (registerShop: RegisterShop, registerOptions: { readonly readyMadeStore?: boolean }) => {
    // A pair of our own, made once and kept sealed: a repeat after a failure presents the same pair.
    let key = await readSealed(context, SETTING.basicKey)
    let secret = await readSealed(context, SETTING.basicSecret)
    if (!key || !secret) {
      key = `shop_${randomText(16)}`
      secret = randomText(32)
      await writeSettings(context, { [SETTING.basicKey]: key, [SETTING.basicSecret]: secret })
    }
    // Stored before the call, sent again on every repeat: after a lost answer the service answers
    // with the first registration, instead of a second shop whose secret push could land last.
    const newKey = async () => {
      const made = newIdempotencyKey(context.now().getTime())
      await options.store.putSetting(SETTING.registrationKey, made)
      return made
    }
    let idempotencyKey = (await options.store.getSetting(SETTING.registrationKey)) || (await newKey())
    const shop = { shopUrl, key, secret, ...(registerOptions.readyMadeStore ? { readyMadeStore: true } : {}) }
    const giveUpAt = Date.now() + REGISTRATION_RETRY_MS
    let result: Awaited<ReturnType<RegisterShop>>
    for (let renewed = false; ; ) {
      try {
        result = await registerShop(shop, { idempotencyKey })
        break
      } catch (error) {
        if (!(error instanceof PaymentServiceError)) throw error
        // The key named another registration (this shop's address changed since): this one is new.
        if (error.serviceCode === 'IDEMPOTENCY_KEY_REUSED' && !renewed) {
          renewed = true
          idempotencyKey = await newKey()
          continue
        }
        // No answer, or the service still runs the first call under this key: ask again under it. Not a
        // refusal about the shop itself (SHOP_UNREACHABLE, SHOP_SETTINGS_INVALID): that is the caller's to mend.
        const open = error.kind === 'unknown' && !error.serviceCode.startsWith('SHOP_')
        if (!(open || error.serviceCode === 'IDEMPOTENCY_KEY_IN_USE') || Date.now() > giveUpAt) throw error
        await context.sleep(REGISTRATION_REPEAT_WAIT_MS)
      }
    }
    // The store first: `shop_id` marks the shop registered, so a crash in between registers again
    // (the same key: the same answer) instead of losing a ready-made store.
    if (result.storeId) await recordReadyMadeStore(options.store, result.storeId)
    await options.store.putSetting(SETTING.shopId, result.shopId)
    forgetConnection()
    return { shopId: result.shopId, storeId: result.storeId, alreadyRegistered: false }
  }

  const modify = (kind: ModificationKind, orderId: string | number, o: ModifyOptions | undefined) =>
    unlessStoreUnavailable(() => modifyOrder(context, kind, String(orderId), o, repeatWindowMs), log, kind)

  return {
    fetch: handle,
    handles: (pathname) => allPaths.includes(pathname),
    paths: allPaths,
    poller,
    capture: (orderId, o) => modify('capture', orderId, o),
    refund: (orderId, o) => modify('refund', orderId, o),
    cancel: (orderId, o) => modify('cancel', orderId, o),
    savedCards: (shopperReference) => savedCards(context, shopperReference),
    removeSavedCard: (card) => removeSavedCard(context, card),
    eraseShopperData: (orderId) => eraseShopperData(context, String(orderId)),
    resealSecrets: () => resealSecrets(context),
    async register(registerOptions = {}) {
      const before = await registered()
      if (before) return before
      if (!options.registerShop) throw new TypeError('registerShop: needed to register (connectServiceClient(...).registerShop)')
      const registerShop = options.registerShop
      // One instance registers at a time (the service makes a shop per call): the others wait, then find it registered.
      const holder = crypto.randomUUID()
      for (;;) {
        const { acquired } = await options.store.acquireLease(
          REGISTRATION_LEASE,
          holder,
          REGISTRATION_LEASE_MS,
          context.now().toISOString(),
        )
        if (acquired) break
        await new Promise((resolve) => setTimeout(resolve, REGISTRATION_WAIT_MS))
        const meanwhile = await registered()
        if (meanwhile) return meanwhile
      }
      try {
        return (await registered()) ?? (await registerOnce(registerShop, registerOptions))
      } finally {
        await options.store.releaseLease(REGISTRATION_LEASE, holder).catch(() => {})
      }
    },
    async connect(credentials) {
      await writeSettings(
        context,
        { [SETTING.serviceSecret]: credentials.serviceSecret },
        { [SETTING.shopId]: credentials.shopId, [SETTING.storeId]: credentials.storeId },
      )
      forgetConnection()
    },
    useStore,
    merchantSetup: merchantSetup.setup,
    deliverChanges: () => outbox.drain(),
  }
}

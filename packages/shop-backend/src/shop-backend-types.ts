import type { OrderRecord } from '@card-jwe/payment-validator'
import type { SavedCardCharge, SavedCardChargeResult } from './ledger/charge-saved-card.js'
import type { SavedCardChoice } from './ledger/saved-card-check.js'
import type { Poller } from './poller/create-poller.js'
import type { MerchantSetup } from './setup/merchant-setup.js'
import type {
  PaymentService,
  RegisterShop,
  SavedCard,
  SavedCardRemoval,
  ServiceCredentials,
  ShopService,
  StoredCard,
} from './payment-service.js'
import type { LedgerStore, OrderChange } from './store/ledger-store.js'
import type { FailureThrottleOptions } from './lib/failure-throttle.js'
import type { ModificationResult, ModifyOptions } from './ledger/modify.js'
import type { ResealReport } from './reseal-secrets.js'
import type { ErasureRequests } from './ledger/shopper-data.js'
import type { ShopBackendLog } from './telemetry/log.js'
import type { Readiness, ReadinessOptions } from './health/readiness.js'
import type { TelemetryOptions } from './telemetry/backend-telemetry.js'
import type { AdminOptions } from './http/admin-routes.js'

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

/** The answer of `GET /api/config` (`paths.config`): what the page needs before it shows the card form. */
export interface CheckoutConfig {
  /** The processor's X.509 certificate (PEM) the page encrypts the card with, when the shop gave one. */
  readonly certificatePem?: string
  /** The service's origin, for the page's Content-Security-Policy and its 3-D Secure frames, when given. */
  readonly serviceOrigin?: string
  /**
   * False until the shop is registered and sells from an onboarded store, and when the back end has
   * no `certificatePem`: the page then offers no form.
   */
  readonly checkoutReady: boolean
  /** False when the service did not answer within 3 s: the page can say so before Pay. */
  readonly serviceReachable: boolean
  /**
   * The `type` of each method the service offers this store (`scheme` for cards, `ideal`, ...), read
   * from checkout-payment-methods with `paymentMethodsQuery`: names only, not the service's answer.
   * Empty when the checkout is closed or the service is out of reach.
   */
  readonly paymentMethods: readonly string[]
  /**
   * With `?orderId=` for an order with a `shopperReference` (from the shop's `findOrder`): that
   * shopper's saved cards, `{id, brand, lastFour, expiryMonth, expiryYear}` each, to offer first.
   * Absent without an order, a shopper, the card method, or the service.
   */
  readonly savedCards?: readonly SavedCardChoice[]
}

/** Where the page's calls go unless `paths` says otherwise. */
export const DEFAULT_CHECKOUT_PATHS: CheckoutPaths = Object.freeze({
  config: '/api/config',
  payments: '/api/payments',
  paymentDetails: '/api/payment-details',
})

/** Paths of the health checks load balancers and Kubernetes probes call. */
export interface HealthPaths {
  /** GET: 200 while the process serves (liveness). Default `/healthz`. */
  readonly live: string
  /** GET: 200 when ready for checkouts, else 503, with each check in a JSON body (readiness). Default `/readyz`. */
  readonly ready: string
}

/** Where the health checks are served unless `healthPaths` says otherwise. */
export const DEFAULT_HEALTH_PATHS: HealthPaths = Object.freeze({ live: '/healthz', ready: '/readyz' })

/** Options of {@link createShopBackend}. */
export interface ShopBackendOptions extends TelemetryOptions {
  /** The payment ledger's storage (`@card-jwe/shop-backend/sqlite`, or another {@link LedgerStore}). */
  readonly store: LedgerStore
  /**
   * The signed service port once the shop's credentials are known (`connectServiceClient(...).service`,
   * which has the payment and the merchant set-up calls). A factory of your own may return only a
   * {@link PaymentService}: the set-up's calls are optional, and `merchantSetup` then throws a TypeError.
   * Each of its calls must end within 30 s, retries included: another instance takes a step's call
   * still out after 60 s as abandoned.
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
  /**
   * When the shop takes the money, unless an order says otherwise (its own `captureDelayHours`): 0 at
   * authorisation, n hours after it (a whole number up to 720); absent, the shop captures itself
   * (`capture`). Either way the capture reaches `onOrderChange` as `captured` from the feed.
   */
  readonly captureDelayHours?: number
  /** Where the shopper returns after a redirect; default `${shopUrl}/?orderId=<id>`. */
  readonly returnUrl?: (order: ShopOrder) => string
  /**
   * Where the onboarding return sends the merchant, after it re-checked the onboarding status (best
   * effort); default `/admin.html?onboarding=returned`.
   */
  readonly adminUrl?: string
  /**
   * The processor's certificate (PEM) the page encrypts with; in the checkout config. Without it the
   * config says `checkoutReady: false`, readiness warns `NO_CERTIFICATE`, and a line is logged at start.
   */
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
  /** Where the liveness and readiness checks are served; default {@link DEFAULT_HEALTH_PATHS}. */
  readonly healthPaths?: Partial<HealthPaths>
  /** How readiness judges the poller and how long its store reads may take. */
  readonly readiness?: ReadinessOptions
  /** Default 64 KiB. */
  readonly maxBodyBytes?: number
  /**
   * An identical non-card submission within this time is a repeat (a double click), as is a capture,
   * refund or cancel without requestId asking for what the one before it asked for; default 15 s.
   */
  readonly repeatWindowMs?: number
  /**
   * The admin routes (an order's payments; capture, refund and cancel; the poll problems and waiting
   * deliveries, to retry or dismiss), served only when given, to requests `authorize` lets through.
   */
  readonly admin?: AdminOptions
  /** How repeated wrong Basic credentials are slowed. */
  readonly failureThrottle?: FailureThrottleOptions
  /** The clock; default the real one. */
  readonly now?: () => Date
  /**
   * Where the back end says what is worth knowing: a function that takes one line, or a structured
   * logger of pino's shape (`info`, `warn`, `error`, `debug` taking fields and a message), which gets
   * each entry's level and fields (`code`, `orderId`, `sequence`...). Lines and fields name codes and
   * ids, never card data or secrets. Default: none.
   */
  readonly log?: ShopBackendLog
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
  /**
   * Web-standard handler: the shop-side endpoints, the checkout API, the health checks and the admin
   * routes if given; 404 JSON for other paths.
   */
  fetch(request: Request, info?: RequestInfo): Promise<Response>
  /** Whether `fetch` serves this path (for frameworks that mount it beside their own routes). */
  handles(pathname: string): boolean
  /** Every path `fetch` serves; the admin routes' in the `:param` form Hono and Fastify route by (`/api/admin/orders/:orderId`). */
  readonly paths: readonly string[]
  /** Whether this instance can serve checkouts now, check by check: what the readiness path answers. */
  readiness(): Promise<Readiness>
  /** The updated-payments poller: start it once the shop is registered. */
  readonly poller: Poller
  /**
   * Captures the order's authorised payment: what is left to capture, unless `options.amount`.
   * Refused (`ShopBackendError`, as are refund and cancel) with, among others, `ORDER_NOT_FOUND` when
   * the ledger holds no attempt for the order, `MODIFICATION_NOT_ALLOWED` for a payment in another
   * state, and `AMOUNT_NOT_ALLOWED` for an amount over what is left.
   */
  capture(orderId: string | number, options?: ModifyOptions): Promise<ModificationResult>
  /** Refunds the order's captured money: all not refunded yet, unless `options.amount`. */
  refund(orderId: string | number, options?: ModifyOptions): Promise<ModificationResult>
  /** Cancels the order's authorised, uncaptured payment. */
  cancel(orderId: string | number, options?: ModifyOptions): Promise<ModificationResult>
  /** A shopper's saved cards at the service (id, brand, last four): what `removeSavedCard` takes. */
  savedCards(shopperReference: string): Promise<StoredCard[]>
  /** Removes a shopper's saved card at the service. */
  removeSavedCard(card: SavedCard): Promise<SavedCardRemoval>
  /**
   * Charges the order's amount to one of its shopper's saved cards without the shopper (a renewal):
   * the attempt and its key stored before the call, one charge per order across instances, the
   * answer stored, `onOrderChange` heard before it resolves. A card not of the order's shopper is
   * refused (`STORED_PAYMENT_METHOD_UNKNOWN`) with nothing sent; a refusal by the bank is
   * `{resultCode: 'Refused'}` and a failed attempt.
   */
  chargeSavedCard(orderId: string | number, charge: SavedCardCharge): Promise<SavedCardChargeResult>
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
  /**
   * Uses credentials obtained elsewhere (a ready-made shop, a migration); the secret is sealed. A ledger
   * serves one shop: another shop's id on a ledger holding the first's payments or feed position is
   * refused (`LEDGER_OF_ANOTHER_SHOP`) and nothing is stored.
   */
  connect(credentials: ServiceCredentials & { readonly storeId: string }): Promise<void>
  /** Sets the store the checkout sells from ('' closes it); `merchantSetup` does this itself. */
  useStore(storeId: string): Promise<void>
  /** The merchant's set-up (account, contractor, store, onboarding), as calls for the shop's admin. */
  readonly merchantSetup: MerchantSetup
  /** Delivers due order changes now (also runs after every write and every poll). */
  deliverChanges(): Promise<void>
}

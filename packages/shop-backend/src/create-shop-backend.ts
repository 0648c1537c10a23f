import { DEFAULT_MAX_BODY_BYTES } from '@card-jwe/payment-validator'
import { checkOptions } from './options/check-options.js'
import { addCheckoutRoutes, paymentConfigOf } from './checkout-routes.js'
import { chargeSavedCard } from './ledger/charge-saved-card.js'
import { createPoller } from './poller/create-poller.js'
import { createMerchantSetup } from './setup/merchant-setup.js'
import { createRegistration } from './setup/registration.js'
import { connectShop } from './setup/connect-shop.js'
import { createSecretBox, type SecretBox } from './secret-box.js'
import {
  type CheckoutPaths,
  DEFAULT_CHECKOUT_PATHS,
  DEFAULT_HEALTH_PATHS,
  type HealthPaths,
  type ShopBackend,
  type ShopBackendOptions,
} from './shop-backend-types.js'
import type { ModificationKind } from './store/ledger-store.js'
import { type BackendContext, readSealed, SETTING } from './backend-context.js'
import { createFailureThrottle } from './lib/failure-throttle.js'
import { createKeyedLock } from './lib/keyed-lock.js'
import { modifyOrder, type ModifyOptions } from './ledger/modify.js'
import { createOutbox } from './ledger/outbox.js'
import { resealSecrets } from './reseal-secrets.js'
import { createServiceConnection } from './service-connection.js'
import { createApp } from './http/create-app.js'
import { addShopSideRoutes, SHOP_SIDE_PATHS } from './http/shop-side-routes.js'
import { addAdminRoutes, adminPaths, DEFAULT_ADMIN_BASE_PATH, pathMatcher } from './http/admin-routes.js'
import { eraseShopperData, removeSavedCard, savedCards } from './ledger/shopper-data.js'
import { unlessStoreUnavailable } from './lib/store-failure.js'
import { logOf } from './telemetry/log.js'
import { addHealthRoutes } from './http/health-routes.js'
import { readinessOf } from './health/readiness.js'
import { createBackendTelemetry } from './telemetry/backend-telemetry.js'
import { addRequestTelemetry } from './http/request-telemetry.js'
import { ledgerOrderId } from './lib/ledger-order-id.js'

/**
 * The spec's shop back end as a Web-standard handler plus the ledger, the poller and capture,
 * refund and cancel by order. Framework-neutral: mount `fetch` in Hono (`/hono`), node:http
 * (`/node`) or anything that speaks Request and Response. This is the composition root: each job
 * lives in the module it names.
 */
export function createShopBackend(options: ShopBackendOptions): ShopBackend {
  const served = checkOptions(options, { paths: DEFAULT_CHECKOUT_PATHS, healthPaths: DEFAULT_HEALTH_PATHS })
  const now = options.now ?? (() => new Date())
  const log = logOf(options.log)
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const paths: CheckoutPaths = { ...DEFAULT_CHECKOUT_PATHS, ...options.paths }
  const healthPaths: HealthPaths = { ...DEFAULT_HEALTH_PATHS, ...options.healthPaths }
  const shopUrl = options.shopUrl.replace(/\/+$/, '')
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const repeatWindowMs = options.repeatWindowMs ?? 15_000
  const hasCertificate = served.certificatePem !== undefined
  // Said once at start: without it the checkout config gives the page nothing to encrypt with.
  if (!hasCertificate)
    log('no certificatePem: /api/config gives the page no certificate, so checkoutReady is false (readiness: NO_CERTIFICATE)', 'warn', {
      component: 'checkout',
      code: 'NO_CERTIFICATE',
    })
  let boxPromise: Promise<SecretBox> | undefined
  const connection = createServiceConnection({
    store: options.store,
    service: options.service,
    readSecret: () => readSealed(context, SETTING.serviceSecret),
    now,
  })

  const context: BackendContext = {
    store: options.store,
    now,
    log,
    findOrder: async (orderId) => options.findOrder(orderId),
    withLock: createKeyedLock(),
    box: () => (boxPromise ??= createSecretBox(options.secretKey, { previousKeys: options.previousSecretKeys ?? [] })),
    connection: connection.current,
    service: connection.signed,
    // Outside a request (none queue so today) the poller's drain delivers what was queued.
    changeQueued: () => {},
    drainOutbox: () => outbox.drain(),
    pollNow: () => poller.pollNow(),
    sleep,
  }
  async function useStore(storeId: string): Promise<void> {
    await options.store.putSetting(SETTING.storeId, storeId)
    connection.forget()
  }
  const merchantSetup = createMerchantSetup({ store: options.store, service: connection.signed, useStore, log, sleep })
  const outbox = createOutbox(options.store, options.onOrderChange, now, log)
  const poller = createPoller(context)
  const registration = createRegistration({
    context,
    store: options.store,
    shopUrl,
    registerShop: options.registerShop,
    forgetConnection: connection.forget,
  })

  const shopSide = {
    throttle: createFailureThrottle(options.failureThrottle),
    checkLock: createKeyedLock(),
    adminUrl: options.adminUrl ?? '/admin.html?onboarding=returned',
    maxBodyBytes,
    sleep,
    secretChanged: connection.forget,
    onboardingReturned: () => merchantSetup.onboardingReturned(),
  }
  const savedCardCharges = { outbox, config: paymentConfigOf({ ...options, shopUrl }), repeatWindowMs }
  const telemetry = createBackendTelemetry(options, context)
  const app = createApp((app) => {
    addRequestTelemetry(app, [paths.config, paths.payments, paths.paymentDetails], telemetry)
    addShopSideRoutes(app, context, shopSide)
    addCheckoutRoutes(app, paths, {
      ...options,
      certificatePem: served.certificatePem,
      context,
      outbox,
      shopUrl,
      maxBodyBytes,
      repeatWindowMs,
    })
    addHealthRoutes(app, healthPaths, context, options.readiness ?? {}, hasCertificate)
    // `modify` (below, shared with backend.capture and the others) is reached only once a request comes.
    if (options.admin)
      addAdminRoutes(app, options.admin, { context, outbox, modify: (kind, orderId, o) => modify(kind, orderId, o), maxBodyBytes })
  }, log)
  // Without the option no admin path exists: 404 as any path the back end does not serve.
  const admin = options.admin ? Object.values(adminPaths(options.admin.basePath ?? DEFAULT_ADMIN_BASE_PATH)) : []
  const allPaths = Object.freeze([
    ...Object.values(SHOP_SIDE_PATHS),
    paths.config,
    paths.payments,
    paths.paymentDetails,
    healthPaths.live,
    healthPaths.ready,
    ...admin,
  ])
  const isAdminPath = pathMatcher(admin)

  const modify = (kind: ModificationKind, orderId: string | number, o: ModifyOptions | undefined) =>
    unlessStoreUnavailable(async () => modifyOrder(context, kind, ledgerOrderId(orderId), o, repeatWindowMs), log, kind)

  return {
    fetch: async (request, info = {}) => app.fetch(request, { info }),
    handles: (pathname) => allPaths.includes(pathname) || isAdminPath(pathname),
    paths: allPaths,
    poller,
    readiness: () => readinessOf(context, options.readiness ?? {}, hasCertificate),
    capture: (orderId, o) => modify('capture', orderId, o),
    refund: (orderId, o) => modify('refund', orderId, o),
    cancel: (orderId, o) => modify('cancel', orderId, o),
    savedCards: (shopperReference) => savedCards(context, shopperReference),
    removeSavedCard: (card) => removeSavedCard(context, card),
    chargeSavedCard: (orderId, charge) =>
      unlessStoreUnavailable(
        async () => chargeSavedCard(context, savedCardCharges, ledgerOrderId(orderId), charge),
        log,
        'chargeSavedCard',
      ),
    eraseShopperData: async (orderId) => eraseShopperData(context, ledgerOrderId(orderId)),
    resealSecrets: () => resealSecrets(context),
    register: registration.register,
    async connect(credentials) {
      await connectShop(context, credentials)
      connection.forget()
    },
    useStore,
    merchantSetup: merchantSetup.setup,
    deliverChanges: () => outbox.drain(),
  }
}

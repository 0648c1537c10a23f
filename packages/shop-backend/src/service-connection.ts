import { ShopBackendError } from './errors.js'
import type { PaymentService, ServiceCredentials, ShopService } from './payment-service.js'
import type { LedgerStore } from './store/ledger-store.js'
import { SETTING } from './backend-context.js'

/** How long the shop's id, secret and store id stay in memory between reads of the store. */
export const CONNECTION_CACHE_MS = 1_000

/** The service as this shop: signed with its id and secret, with the store the checkout sells from. */
export interface ServiceConnection {
  /** The signed port; 503 NOT_REGISTERED before registration. */
  signed(): Promise<ShopService>
  /** The signed port and the store id, kept for {@link CONNECTION_CACHE_MS} and shared by concurrent requests. */
  current(): Promise<{ service: PaymentService; storeId: string }>
  /** After a local write of the shop's id, secret or store: the next call reads them again. */
  forget(): void
}

const notRegistered = (what: string) => new ShopBackendError('NOT_REGISTERED', what)

export function createServiceConnection(deps: {
  readonly store: LedgerStore
  readonly service: (credentials: ServiceCredentials) => ShopService
  /** The unsealed `service_secret`, or undefined. */
  readonly readSecret: () => Promise<string | undefined>
  readonly now: () => Date
}): ServiceConnection {
  let connected: { readonly secret: string; readonly shopId: string; readonly service: ShopService } | undefined
  let cached: { readonly until: number; readonly value: Promise<{ service: PaymentService; storeId: string }> } | undefined

  async function signed(): Promise<ShopService> {
    const shopId = await deps.store.getSetting(SETTING.shopId)
    const secret = await deps.readSecret()
    if (!shopId || !secret) throw notRegistered('the shop is not registered with the payment service yet')
    if (!connected || connected.secret !== secret || connected.shopId !== shopId)
      connected = { secret, shopId, service: deps.service({ shopId, serviceSecret: secret }) }
    return connected.service
  }

  async function read(): Promise<{ service: PaymentService; storeId: string }> {
    const service = await signed()
    const storeId = await deps.store.getSetting(SETTING.storeId)
    if (!storeId) throw notRegistered('the shop is not registered with the payment service yet, or has no store')
    return { service, storeId }
  }

  return {
    signed,
    // Three reads and an unsealing per request cost more than the payment's own writes. Local writes
    // forget it at once; another instance's registration or store change is seen within CONNECTION_CACHE_MS.
    current() {
      const at = deps.now().getTime()
      if (!cached || at >= cached.until) {
        const value = read()
        cached = { until: at + CONNECTION_CACHE_MS, value }
        value.catch(() => {
          if (cached?.value === value) cached = undefined
        })
      }
      return cached.value
    },
    forget() {
      cached = undefined
      connected = undefined
    },
  }
}

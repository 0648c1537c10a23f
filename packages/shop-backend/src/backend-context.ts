import type { OrderRecord } from '@card-jwe/payment-validator'
import type { PaymentService, ShopService } from './payment-service.js'
import type { SecretBox } from './secret-box.js'
import type { LedgerStore, QueuedChange } from './store/ledger-store.js'
import type { PollReport } from './poller/create-poller.js'
import type { Log } from './telemetry/log.js'

/** What the operations share; built once by `createShopBackend`. */
export interface BackendContext {
  /** The ledger. */
  readonly store: LedgerStore
  /** The clock. */
  readonly now: () => Date
  /** Where log lines go, with a level and fields (codes and ids, never card data or secrets). */
  readonly log: Log
  /** The shop's order by id, as the trust-boundary checks read it. */
  readonly findOrder: (orderId: string) => Promise<OrderRecord | undefined>
  /** The signed port and the store id; 503 NOT_REGISTERED before registration. */
  readonly connection: () => Promise<{
    /** The port, signing as the shop. */
    readonly service: PaymentService
    /** The store the checkout sells from. */
    readonly storeId: string
  }>
  /** The signed port without a store (the merchant set-up); 503 NOT_REGISTERED before registration. */
  readonly service: () => Promise<ShopService>
  /** Runs `run` after every earlier run with the same key (an order's submissions, one at a time). */
  readonly withLock: <T>(key: string, run: () => Promise<T>) => Promise<T>
  /** The secret box for sealed settings. */
  readonly box: () => Promise<SecretBox>
  /**
   * Tells the request's outbox ticket of a change its compare-and-set queued (`undefined`: the store did
   * not say, or the compare-and-set lost the race to another writer): heard before the request answers.
   */
  readonly changeQueued: (queued: QueuedChange | undefined) => void
  /** Delivers due order changes to the shop; never throws. */
  readonly drainOutbox: () => Promise<void>
  /** One poll of the feed now (shared with the timer); never throws. */
  readonly pollNow: () => Promise<PollReport>
  /** Waits (a test may make it instant). */
  readonly sleep: (ms: number) => Promise<void>
}

/** Setting ids in the store. Secrets are sealed (secret-box). */
export const SETTING = {
  shopId: 'shop_id',
  storeId: 'store_id',
  serviceSecret: 'service_secret',
  basicKey: 'basic_key',
  basicSecret: 'basic_secret',
  /** The registration's idempotency key, stored with the pair before the first call. */
  registrationKey: 'registration_key',
  // The merchant set-up's progress (plain: spec "Values a shop stores" has them readable at runtime).
  merchantEmail: 'merchant_email',
  backofficeUser: 'backoffice_user',
  /** The address whose code connected the account: signing in again with it keeps the contractor and store. */
  connectedEmail: 'connected_email',
  contractorId: 'contractor_id',
  /** The store the merchant chose or created; `storeId` follows it once it is onboarded. */
  chosenStoreId: 'chosen_store_id',
  onboardingStatus: 'onboarding_status',
  onboardingErrors: 'onboarding_errors',
  readyMadeStore: 'ready_made_store',
  /** When a poller last read the feed to its end (or its page limit), on any instance: readiness and the lag gauge read it. */
  pollReadAt: 'poll_read_at',
  /** The service's code when the last poll was refused for the shop's signature; '' once a poll reads the feed. */
  pollRefused: 'poll_refused',
} as const

export async function readSealed(context: BackendContext, id: string): Promise<string | undefined> {
  const sealed = await context.store.getSetting(id)
  return sealed === undefined ? undefined : (await context.box()).open(sealed)
}

/** `sealed` sealed and `plain` as they are (no id in both), written together: all of them or none. */
export async function writeSettings(
  context: BackendContext,
  sealed: Readonly<Record<string, string>>,
  plain: Readonly<Record<string, string>> = {},
): Promise<void> {
  const box = await context.box()
  const entries = await Promise.all(Object.entries(sealed).map(async ([id, value]) => [id, await box.seal(value)] as const))
  await context.store.putSettings({ ...plain, ...Object.fromEntries(entries) })
}

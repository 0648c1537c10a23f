import { PaymentServiceError, type RegisterShop } from '../payment-service.js'
import type { Registration } from '../shop-backend-types.js'
import type { LedgerStore } from '../store/ledger-store.js'
import { type BackendContext, readSealed, SETTING, writeSettings } from '../backend-context.js'
import { newIdempotencyKey } from '../lib/idempotency-key.js'
import { recordReadyMadeStore } from './setup-state.js'
import { outcomeIsOpen } from '../ledger/refusals.js'

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
 * The shop's registration (spec "Shop registration"): one instance at a time under a lease, a Basic
 * pair made once and kept sealed, one idempotency key stored before the call and sent on every repeat.
 */
export function createRegistration(deps: {
  readonly context: BackendContext
  readonly store: LedgerStore
  readonly shopUrl: string
  readonly registerShop: RegisterShop | undefined
  /** After the shop's id, secret or store were written here. */
  readonly forgetConnection: () => void
}) {
  const { context } = deps
  /** The registration stored (shop id and its service secret), if the shop has one. */
  const registered = async (): Promise<Registration | undefined> => {
    const shopId = await deps.store.getSetting(SETTING.shopId)
    if (!shopId || !(await readSealed(context, SETTING.serviceSecret))) return undefined
    return { shopId, storeId: await deps.store.getSetting(SETTING.storeId), alreadyRegistered: true }
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
      await deps.store.putSetting(SETTING.registrationKey, made)
      return made
    }
    let idempotencyKey = (await deps.store.getSetting(SETTING.registrationKey)) || (await newKey())
    const shop = { shopUrl: deps.shopUrl, key, secret, ...(registerOptions.readyMadeStore ? { readyMadeStore: true } : {}) }
    const giveUpAt = context.now().getTime() + REGISTRATION_RETRY_MS
    let result: Awaited<ReturnType<RegisterShop>>
    for (let renewed = false; ; ) {
      try {
        result = await registerShop(shop, { idempotencyKey })
        break
      } catch (error) {
        if (!(error instanceof PaymentServiceError)) throw error
        // The key named another registration (this shop's address changed since): this one is new.
        if (error.code === 'IDEMPOTENCY_KEY_REUSED' && !renewed) {
          renewed = true
          idempotencyKey = await newKey()
          continue
        }
        // No answer, or the service still runs the first call under this key: ask again under it. Not a
        // refusal about the shop itself (SHOP_UNREACHABLE, SHOP_SETTINGS_INVALID): that is the caller's to mend.
        // Nor an answer that could not be read: the service gives the same one again under the key.
        const open = outcomeIsOpen(error) && !error.code.startsWith('SHOP_') && error.code !== 'INVALID_RESPONSE'
        if (!open || context.now().getTime() > giveUpAt) throw error
        await context.sleep(REGISTRATION_REPEAT_WAIT_MS)
      }
    }
    // The store first: `shop_id` marks the shop registered, so a crash in between registers again
    // (the same key: the same answer) instead of losing a ready-made store.
    if (result.storeId) await recordReadyMadeStore(deps.store, result.storeId)
    await deps.store.putSetting(SETTING.shopId, result.shopId)
    deps.forgetConnection()
    return { shopId: result.shopId, storeId: result.storeId, alreadyRegistered: false }
  }

  async function register(registerOptions: { readonly readyMadeStore?: boolean } = {}): Promise<Registration> {
    const before = await registered()
    if (before) return before
    if (!deps.registerShop) throw new TypeError('registerShop: needed to register (connectServiceClient(...).registerShop)')
    const registerShop = deps.registerShop
    // One instance registers at a time (the service makes a shop per call): the others wait, then find it registered.
    const holder = crypto.randomUUID()
    for (;;) {
      const { acquired } = await deps.store.acquireLease(REGISTRATION_LEASE, holder, REGISTRATION_LEASE_MS, context.now().toISOString())
      if (acquired) break
      await context.sleep(REGISTRATION_WAIT_MS)
      const meanwhile = await registered()
      if (meanwhile) return meanwhile
    }
    try {
      return (await registered()) ?? (await registerOnce(registerShop, registerOptions))
    } finally {
      await deps.store.releaseLease(REGISTRATION_LEASE, holder).catch(() => {})
    }
  }

  return { registered, register }
}

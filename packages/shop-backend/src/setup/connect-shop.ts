// connect(): credentials obtained elsewhere, on a ledger that serves one shop.
import type { ServiceCredentials } from '../payment-service.js'
import { ShopBackendError } from '../errors.js'
import { type BackendContext, SETTING, writeSettings } from '../backend-context.js'

/** Later than any row's `updated_at`: every open payment and request is counted. */
const ANY_AGE = '9999-12-31T23:59:59.999Z'

/** What of one shop a ledger holds: another shop's credentials would break it. */
export interface LedgerOfShop {
  /** The shop the ledger holds work of. */
  readonly shopId: string
  /** The ledger holds that shop's payments, each under a key only that shop's account knows. */
  readonly holdsPayments: boolean
  /** Of them, payments whose outcome is open: a next Pay sends them again under their keys. */
  readonly openPayments: number
  /** Captures, refunds and cancels whose outcome is open, sent again the same way. */
  readonly openRequests: number
  /** The feed was read: its position is in that shop's feed. */
  readonly feedRead: boolean
}

/**
 * Refuses another shop's id on a ledger holding the stored shop's payments or feed position
 * (`LEDGER_OF_ANOTHER_SHOP`): the service keeps an idempotency key per shop, so the other shop would
 * take a payment sent again (a Pay, a step's details) as a new one while the first may have charged
 * it, and could capture or refund none of them. See docs/decisions.md.
 */
async function refuseAnotherShop(context: BackendContext, storedShopId: string): Promise<void> {
  const { store } = context
  const [holdsPayments, cursor] = await Promise.all([store.holdsAttempts(), store.readCursor()])
  if (!holdsPayments && cursor === 0) return
  const [openPayments, openRequests] = await Promise.all([store.countOpenAttempts(ANY_AGE), store.countOpenModifications(ANY_AGE)])
  const held: LedgerOfShop = { shopId: storedShopId, holdsPayments, openPayments, openRequests, feedRead: cursor > 0 }
  throw new ShopBackendError(
    'LEDGER_OF_ANOTHER_SHOP',
    `shopId: this ledger is shop ${storedShopId}'s (${holdsPayments ? 'its payments' : 'no payments'}, ` +
      `${openPayments} with an open outcome, ${openRequests} open requests, its feed ${held.feedRead ? 'read' : 'not read'}); ` +
      `a ledger serves one shop. To go on with shop ${storedShopId}, leave connect() out (its values are stored) ` +
      'or give it those values; for another shop, use a new ledger',
    held,
  )
}

/** Stores the credentials (the secret sealed) once the ledger may serve that shop. */
export async function connectShop(context: BackendContext, credentials: ServiceCredentials & { readonly storeId: string }): Promise<void> {
  const stored = await context.store.getSetting(SETTING.shopId)
  if (stored && stored !== credentials.shopId) await refuseAnotherShop(context, stored)
  await writeSettings(
    context,
    { [SETTING.serviceSecret]: credentials.serviceSecret },
    { [SETTING.shopId]: credentials.shopId, [SETTING.storeId]: credentials.storeId },
  )
}

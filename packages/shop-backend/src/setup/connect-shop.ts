// connect(): credentials obtained elsewhere, on a ledger that serves one shop.
import type { ServiceCredentials } from '../payment-service.js'
import { ShopBackendError } from '../errors.js'
import { type BackendContext, SETTING, writeSettings } from '../backend-context.js'

/** Later than any row's `updated_at`: every open payment and request counts. */
const ANY_AGE = '9999-12-31T23:59:59.999Z'

/** What of one shop a ledger holds that another shop's credentials would break. */
export interface LedgerOfShop {
  /** The shop the ledger holds work of. */
  readonly shopId: string
  /** Payments whose outcome is open: sent again under their keys, which only that shop's service account knows. */
  readonly openPayments: number
  /** Captures, refunds and cancels whose outcome is open, sent again the same way. */
  readonly openRequests: number
  /** The feed was read: its position is in that shop's feed. */
  readonly feedRead: boolean
}

/**
 * Refuses another shop's id on a ledger holding the stored shop's open work or feed position
 * (`LEDGER_OF_ANOTHER_SHOP`): the service keeps an idempotency key per shop, so the other shop would
 * take an open payment sent again as a new one while the first may have charged. See docs/decisions.md.
 */
async function refuseAnotherShop(context: BackendContext, storedShopId: string): Promise<void> {
  const [openPayments, openRequests, cursor] = await Promise.all([
    context.store.countOpenAttempts(ANY_AGE),
    context.store.countOpenModifications(ANY_AGE),
    context.store.readCursor(),
  ])
  const held: LedgerOfShop = { shopId: storedShopId, openPayments, openRequests, feedRead: cursor > 0 }
  if (openPayments === 0 && openRequests === 0 && !held.feedRead) return
  throw new ShopBackendError(
    'LEDGER_OF_ANOTHER_SHOP',
    `shopId: this ledger is shop ${storedShopId}'s (${openPayments} payments and ${openRequests} requests with an open outcome, ` +
      `its feed ${held.feedRead ? 'read' : 'not read'}); a ledger serves one shop. Connect that shop, or give another shop a new ledger`,
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

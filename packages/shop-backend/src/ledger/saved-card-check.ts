// A saved card the shopper (or the shop's own code) pays with: one of the order's shopper's, read from the service.
import type { OrderRecord } from '@card-jwe/payment-validator'
import { ShopBackendError } from '../errors.js'
import type { StoredCard } from '../payment-service.js'
import type { BackendContext } from '../backend-context.js'
import { paidAttempt } from './attempts.js'
import { canHaveSavedCards, savedCards } from './shopper-data.js'

/** A saved card as the page sees it: enough to tell cards apart and pick one, nothing more. */
export interface SavedCardChoice {
  /** The `storedPaymentMethodId` the page sends back. */
  readonly id: string
  /** The brand, as the service names it. */
  readonly brand?: string
  /** The last four digits. */
  readonly lastFour?: string
  /** Two digits. */
  readonly expiryMonth?: string
  /** Four digits. */
  readonly expiryYear?: string
}

/** Only the fields a shopper tells cards apart by; the holder's name and anything else stay at the service. */
export function savedCardChoice(card: StoredCard): SavedCardChoice {
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined)
  const picked = {
    brand: text(card.brand),
    lastFour: text(card.lastFour),
    expiryMonth: text(card.expiryMonth),
    expiryYear: text(card.expiryYear),
  }
  return { id: card.id, ...Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined)) }
}

/** One refusal for another shopper's card, an unknown id and a removed card alike: it never says which. */
export function unknownSavedCard(): ShopBackendError {
  return new ShopBackendError('STORED_PAYMENT_METHOD_UNKNOWN', 'paymentMethod.storedPaymentMethodId: no saved card of this shopper', [
    { path: 'paymentMethod.storedPaymentMethodId', rule: 'a saved card of the order shopper' },
  ])
}

/**
 * Checks, before anything is stored or sent, that `storedPaymentMethodId` is one of the saved cards of
 * the order's shopper (the shop's `shopperReference`, never the page's), as the service lists them now;
 * unless the order is paid, when nothing will be sent.
 */
export async function requireOwnSavedCard(context: BackendContext, order: OrderRecord, storedPaymentMethodId: string): Promise<void> {
  // A paid order is answered from the ledger with nothing sent: a repeat after the card was removed gets its result, not a 422.
  if (paidAttempt(await context.store.listAttempts(String(order.id)))) return
  const shopperReference = order.shopperReference
  if (!canHaveSavedCards(shopperReference)) throw unknownSavedCard()
  const cards = await savedCards(context, shopperReference)
  if (!cards.some((card) => card.id === storedPaymentMethodId)) throw unknownSavedCard()
}

import {
  type ErasureRequest,
  PaymentServiceError,
  type PaymentService,
  type SavedCard,
  type SavedCardRemoval,
  type StoredCard,
} from '../payment-service.js'
import { StoredPaymentMethodSchema } from '@card-jwe/payment-validator'
import type { BackendContext } from '../backend-context.js'
import { derivedIdempotencyKey, newIdempotencyKey } from '../lib/idempotency-key.js'
import { attemptsOfOrder, pspReferencesOf } from './attempts.js'
import { refusal, unreachable } from './refusals.js'
import type { AttemptRecord } from '../store/ledger-store.js'
import { UNSETTLED_STATES } from './transitions.js'

/** What `eraseShopperData` asked the service for: one erasure per payment of the order. */
export interface ErasureRequests {
  /** The shop's order id, as text. */
  readonly orderId: string
  /** Each payment of the order the service knows (every attempt with a pspReference), and its answer (`received`). */
  readonly payments: readonly ErasureRequest[]
  /**
   * Attempts (their numbers) whose outcome is still unknown after a look at the feed: the service may
   * hold a payment for one (its answer was lost and the shopper left) that the ledger has no reference
   * for, so nothing could be erased for it yet. Empty when every payment was covered; otherwise erase
   * again once the poller has settled them.
   */
  readonly unsettled: readonly number[]
}

// The service's bounds, as the service client checks them: 3 to 256 characters on one line.
const SHOPPER_REFERENCE = /^.{3,256}$/
// At most 64, as the service client's UnsubscribeRequestSchema sends: a longer id is refused here by name, not sent.
const STORED_METHOD_ID = /^[A-Za-z0-9_-]{1,64}$/

function required<K extends 'unsubscribe' | 'subjectErasure'>(service: PaymentService, name: K): NonNullable<PaymentService[K]> {
  const method = service[name]
  if (!method) throw new TypeError(`service: the port given to createShopBackend has no ${name}`)
  return method.bind(service) as NonNullable<PaymentService[K]>
}

/** The service's refusal or silence as the back end's errors, as for payments. */
function failure(error: unknown): never {
  if (!(error instanceof PaymentServiceError)) throw error
  throw error.kind === 'unknown' ? unreachable() : refusal(error)
}

/** A reference saved cards can be listed and removed under (a payment's may also hold a line break). */
export const canHaveSavedCards = (shopperReference: unknown): shopperReference is string =>
  typeof shopperReference === 'string' && SHOPPER_REFERENCE.test(shopperReference)

function requireShopperReference(shopperReference: unknown): asserts shopperReference is string {
  // Misuse by the shop's own code, not the shopper's input: TypeError naming the field, never its value.
  if (!canHaveSavedCards(shopperReference)) throw new TypeError('shopperReference: 3 to 256 characters on one line')
}

/**
 * A shopper's saved cards, as the store's payment methods list them for that shopper (id, brand, last
 * four): only what reads as a card, so another stored method (a mandate) is never offered or charged as one.
 */
export async function savedCards(context: BackendContext, shopperReference: string): Promise<StoredCard[]> {
  requireShopperReference(shopperReference)
  const { service, storeId } = await context.connection()
  const methods = await service.checkoutPaymentMethods(storeId, { shopper: shopperReference }).catch(failure)
  return ((methods.storedPaymentMethods ?? []) as StoredCard[]).filter((m) => StoredPaymentMethodSchema.safeParse(m).success)
}

/**
 * Removes a shopper's saved card at the service (spec: unsubscribe-requests). The key is the card's:
 * a repeat after a lost answer (the client's retry, or the shop's call again) gets the first answer,
 * not "no such card" for the card it removed.
 */
export async function removeSavedCard(context: BackendContext, card: SavedCard): Promise<SavedCardRemoval> {
  requireShopperReference(card?.shopperReference)
  if (typeof card.storedPaymentMethodId !== 'string' || !STORED_METHOD_ID.test(card.storedPaymentMethodId))
    throw new TypeError('storedPaymentMethodId: 1 to 64 of [A-Za-z0-9_-]')
  const { service, storeId } = await context.connection()
  const unsubscribe = required(service, 'unsubscribe')
  const body = { shopperReference: card.shopperReference, storedPaymentMethodId: card.storedPaymentMethodId }
  const idempotencyKey = derivedIdempotencyKey('unsubscribe', [storeId, body.shopperReference, body.storedPaymentMethodId])
  return unsubscribe(storeId, body, { idempotencyKey }).catch(failure)
}

/**
 * Asks the service to erase the shopper's data of every payment of the order (spec:
 * subject-erasure-requests, one per pspReference). The ledger itself keeps no shopper data: amounts,
 * states, references and the service's answers (result codes, actions), no name, address or card.
 */
export async function eraseShopperData(context: BackendContext, orderId: string): Promise<ErasureRequests> {
  let attempts = await attemptsOfOrder(context, orderId)
  // Signed calls need no selling store: an order is erased while the checkout is closed too.
  const service = await context.service()
  const subjectErasure = required(service, 'subjectErasure')
  if (attempts.some(outcomeUnknown)) {
    // A lost answer: the feed names the payment, and the poll gives the ledger its reference.
    await context.pollNow()
    attempts = await context.store.listAttempts(orderId)
  }
  const references = pspReferencesOf(attempts)
  const payments: ErasureRequest[] = []
  for (const pspReference of references) {
    const answer = await subjectErasure(pspReference, { idempotencyKey: newIdempotencyKey(context.now().getTime()) }).catch(failure)
    payments.push({ pspReference, status: answer.status })
  }
  return { orderId, payments, unsettled: attempts.filter(outcomeUnknown).map((a) => a.number) }
}

/** No answer kept, no reference: the service may or may not hold a payment for it. */
const outcomeUnknown = (attempt: AttemptRecord): boolean => UNSETTLED_STATES.has(attempt.state) && !attempt.pspReference

// A charge of a saved card without the shopper (a renewal, a top-up), from the shop's own code.
import { buildSavedCardChargeRequest, type ShopPaymentConfig } from '@card-jwe/payment-validator'
import { ShopBackendError } from '../errors.js'
import type { BackendContext } from '../backend-context.js'
import type { createOutbox } from './outbox.js'
import { fingerprintOf } from '../lib/fingerprint.js'
import { requireOwnSavedCard } from './saved-card-check.js'
import { submitPayment } from './submit-payment.js'
import { underAttempt } from './attempt-in-metadata.js'

/** What `backend.chargeSavedCard` charges the order with. */
export interface SavedCardCharge {
  /** The saved card's `id`, one of the order's shopper's (`backend.savedCards`). */
  readonly storedPaymentMethodId: string
  /** `Subscription` for a fixed schedule, `UnscheduledCardOnFile` for charges at irregular times. */
  readonly recurringProcessingModel: 'Subscription' | 'UnscheduledCardOnFile'
}

/** The outcome of a charge without the shopper: never an action (nobody could answer a challenge). */
export interface SavedCardChargeResult {
  /** `Authorised`, `Refused`, `Error`, or `Received`/`Pending` while the service settles it (the feed tells later). */
  readonly resultCode: string
  /** Why the bank refused, when it did (`Transaction Not Permitted`). */
  readonly refusalReason?: string
}

const MODELS: ReadonlySet<string> = new Set(['Subscription', 'UnscheduledCardOnFile'])

/**
 * Charges the order's amount to one of its shopper's saved cards, the shopper absent. The ledger's
 * attempt machinery as for the page: the attempt and its idempotency key stored before the call, one
 * charge per order across instances, the answer stored, and `onOrderChange` heard before this resolves.
 */
export async function chargeSavedCard(
  context: BackendContext,
  deps: { readonly outbox: ReturnType<typeof createOutbox>; readonly config: ShopPaymentConfig; readonly repeatWindowMs: number },
  orderId: string,
  charge: SavedCardCharge,
): Promise<SavedCardChargeResult> {
  // Misuse by the shop's own code: a TypeError naming the field, never its value.
  if (typeof charge?.storedPaymentMethodId !== 'string' || charge.storedPaymentMethodId === '')
    throw new TypeError('storedPaymentMethodId: the id of one of the saved cards of the shopper')
  if (!MODELS.has(charge.recurringProcessingModel)) throw new TypeError('recurringProcessingModel: Subscription or UnscheduledCardOnFile')
  const order = await context.findOrder(orderId)
  if (!order) throw new ShopBackendError('ORDER_NOT_FOUND', 'orderId: no such order')
  const shopperReference = order.shopperReference
  if (shopperReference === undefined)
    throw new ShopBackendError('ORDER_MISMATCH', 'shopperReference: the order has none, so it has no saved card', [
      { path: 'shopperReference', rule: 'required for a saved card' },
    ])
  await requireOwnSavedCard(context, order, charge.storedPaymentMethodId)
  const { service, storeId } = await context.connection()
  const ticket = deps.outbox.ticket()
  const { storedPaymentMethodId, recurringProcessingModel } = charge
  const fingerprint = fingerprintOf({ storedPaymentMethodId, recurringProcessingModel })
  const answer = await context
    .withLock(String(order.id), async () => {
      const result = await submitPayment(
        { ...context, changeQueued: ticket.queued },
        order,
        { methodType: 'scheme', fingerprint, repeatWindowMs: deps.repeatWindowMs, freshEachTry: false },
        (attempt) =>
          service.createPayment(
            storeId,
            underAttempt(
              buildSavedCardChargeRequest({
                order: { ...order, shopperReference },
                config: deps.config,
                storedPaymentMethodId,
                recurringProcessingModel,
              }),
              attempt.number,
            ),
            { idempotencyKey: attempt.idempotencyKey },
          ),
      )
      // The page's answer leaves out the bank's reason (a shopper is not told it); the merchant is, from the stored answer.
      if (result.resultCode !== 'Refused') return { resultCode: result.resultCode }
      const stored = (await context.store.listAttempts(String(order.id))).at(-1)?.answer?.refusalReason
      return typeof stored === 'string' ? { resultCode: result.resultCode, refusalReason: stored } : { resultCode: result.resultCode }
    })
    .finally(ticket.deliver)
  return answer
}

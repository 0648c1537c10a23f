import { fromRecords, type ShopPaymentConfig } from './build-payment-request.js'
import { strictBody } from './lib/strict-body.js'
import { PaymentRequestSchema, type PaymentRequest } from './schemas/payment-request.js'
import type { OrderRecord } from './check-submission.js'

/** What {@link buildSavedCardChargeRequest} builds a charge without the shopper from. */
export interface SavedCardChargeParts {
  /** The shop's own record of the order; its `shopperReference` owns the saved card. */
  readonly order: OrderRecord & {
    /** The shopper the card was saved for. */
    readonly shopperReference: string
  }
  /** The saved card's `id` from `storedPaymentMethods`. */
  readonly storedPaymentMethodId: string
  /** `Subscription` for a fixed schedule, `UnscheduledCardOnFile` for charges at irregular times. */
  readonly recurringProcessingModel: 'Subscription' | 'UnscheduledCardOnFile'
  /** The shop's configuration. */
  readonly config: ShopPaymentConfig
}

/**
 * The body of a charge of a saved card without the shopper (a subscription, a top-up): the card by
 * its id, `shopperInteraction: "ContAuth"`, no code, no browser data; the service never answers it
 * with an action. Everything comes from the shop's records, nothing from a page.
 */
export function buildSavedCardChargeRequest(parts: SavedCardChargeParts): PaymentRequest {
  const { order, config } = parts
  const body = {
    ...fromRecords(order, config),
    paymentMethod: { type: 'scheme', storedPaymentMethodId: parts.storedPaymentMethodId },
    shopperReference: order.shopperReference,
    shopperInteraction: 'ContAuth',
    recurringProcessingModel: parts.recurringProcessingModel,
  }
  return strictBody<PaymentRequest>(PaymentRequestSchema, body, 'payment request')
}

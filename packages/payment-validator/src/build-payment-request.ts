import { strictBody as strict } from './lib/strict-body.js'
import { PaymentDetailsRequestSchema, type PaymentDetailsRequest } from './schemas/other-bodies.js'
import { PaymentRequestSchema, type PaymentRequest } from './schemas/payment-request.js'
import type { OrderRecord } from './check-submission.js'
import type { BrowserInfoBody } from './schemas/browser-info.js'
import type { DetailsSubmission, PaymentSubmission } from './schemas/submission.js'

/** The shop's configuration: where shoppers come back to, and how the shop pays. */
export interface ShopPaymentConfig {
  /** Where the shopper returns after a redirect; a function gets the order (to put its id in the URL). */
  readonly returnUrl: string | ((order: OrderRecord) => string)
  /** Default "web". */
  readonly channel?: 'web' | 'iOS' | 'Android'
  /** The merchant account, when the shop has more than one. */
  readonly merchantAccount?: string
  /**
   * The shop's default of when money is taken (`captureDelayHours`): 0 at authorisation, n hours after
   * it; absent, the shop captures itself. An order's own `captureDelayHours` wins.
   */
  readonly captureDelayHours?: number
}

/** What {@link buildPaymentRequest} builds the request from. */
export interface PaymentRequestParts {
  /** The shop's own record of the order. */
  readonly order: OrderRecord
  /** A submission that passed `checkSubmission`. */
  readonly submission: PaymentSubmission
  /** The shop's configuration. */
  readonly config: ShopPaymentConfig
  /** The page's browser data completed on the server (`completeBrowserInfo`); else the page's own. */
  readonly browserInfo?: BrowserInfoBody
  /** The shopper's IP address (`completeBrowserInfo` gives it). */
  readonly shopperIP?: string
}

/** The key under which the shop's order id travels in `metadata` (spec: rule 7 names it). */
export const SHOP_ORDER_ID_KEY = 'shop_order_id'

/** What every payment takes from the order record and the shop's configuration, never from a page. */
export function fromRecords(order: OrderRecord, config: ShopPaymentConfig) {
  const captureDelayHours = order.captureDelayHours ?? config.captureDelayHours
  return {
    channel: config.channel ?? 'web',
    returnUrl: typeof config.returnUrl === 'function' ? config.returnUrl(order) : config.returnUrl,
    amount: { currency: order.amount.currency, value: order.amount.value },
    reference: order.reference,
    metadata: { [SHOP_ORDER_ID_KEY]: order.id },
    ...(config.merchantAccount ? { merchantAccount: config.merchantAccount } : {}),
    ...(order.shopperEmail === undefined ? {} : { shopperEmail: order.shopperEmail }),
    ...(order.billingAddress === undefined ? {} : { billingAddress: order.billingAddress }),
    ...(order.lineItems === undefined ? {} : { lineItems: order.lineItems }),
    ...(captureDelayHours === undefined ? {} : { captureDelayHours }),
  }
}

/** How the card is used: saved now (`Ecommerce`), or a saved one with the shopper present (`ContAuth`). */
function recurringOf(submission: PaymentSubmission): Pick<PaymentRequest, 'shopperInteraction' | 'recurringProcessingModel'> {
  if ('storedPaymentMethodId' in submission.paymentMethod) return { shopperInteraction: 'ContAuth', recurringProcessingModel: 'CardOnFile' }
  if (submission.storePaymentMethod === true) return { shopperInteraction: 'Ecommerce', recurringProcessingModel: 'CardOnFile' }
  return {}
}

/**
 * The body to forward to `POST .../payments`. `amount`, `reference`, `metadata`, `shopperReference`,
 * `shopperEmail`, `billingAddress`, `lineItems`, `captureDelayHours`, `channel` and `returnUrl` come
 * from the order record and the shop's configuration, never from the page;
 * `paymentMethod` and `browserInfo` come from the page after `checkSubmission` validated them. Saving a
 * card adds `shopperInteraction: "Ecommerce"`, paying with a saved one `"ContAuth"`, both with
 * `recurringProcessingModel: "CardOnFile"`.
 */
export function buildPaymentRequest(parts: PaymentRequestParts): PaymentRequest {
  const { order, submission, config } = parts
  const browserInfo = parts.browserInfo ?? submission.browserInfo
  const body = {
    ...fromRecords(order, config),
    paymentMethod: submission.paymentMethod,
    ...(browserInfo ? { browserInfo } : {}),
    ...(parts.shopperIP ? { shopperIP: parts.shopperIP } : {}),
    ...(submission.storePaymentMethod === undefined ? {} : { storePaymentMethod: submission.storePaymentMethod }),
    ...(order.shopperReference === undefined ? {} : { shopperReference: order.shopperReference }),
    ...recurringOf(submission),
  }
  return strict<PaymentRequest>(PaymentRequestSchema, body, 'payment request')
}

/**
 * The body to forward to `POST .../payment-details`: the page's details alone. No metadata: the
 * service echoes metadata in its answer, and the order id echoed from here would read as the
 * payment's own, which it may not be (details posted for another order). `_order` is no longer read.
 */
export function buildPaymentDetailsRequest(_order: OrderRecord, submission: DetailsSubmission): PaymentDetailsRequest {
  return strict<PaymentDetailsRequest>(PaymentDetailsRequestSchema, { details: submission.details }, 'payment details')
}

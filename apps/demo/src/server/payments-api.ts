import type { IncomingMessage } from 'node:http'
import { completeBrowserInfo } from '@card-jwe/browser-info/server'
import {
  buildPaymentDetailsRequest,
  buildPaymentRequest,
  checkSubmission,
  DetailsSubmissionSchema,
  parseJsonBody,
  PaymentSubmissionSchema,
  toBrowserPaymentResult,
  type PaymentResponse,
} from '@card-jwe/payment-validator'
import { RETRIED_STATUSES, ServiceError, ServiceUnreachableError, type ServiceClient } from '@card-jwe/service-client'
import { HttpError } from './http.js'
import type { OrderStore } from './order-store.js'
import { orderRecord, updateOrder, type OrderRow } from './orders.js'

export interface PaymentsApiContext {
  readonly orders: OrderStore
  readonly client: () => { client: ServiceClient; storeId: string }
  /** The shop's public origin, for returnUrl. */
  readonly shopUrl: string
  readonly now: () => Date
}

/** An attempt that stopped at one of these shopper steps may be left for a new one. */
const ABANDONABLE = new Set(['RedirectShopper', 'ChallengeShopper', 'IdentifyShopper'])

/** Orders that may (still) be paid: new ones and ones whose last attempt was refused. */
const PAYABLE = new Set(['created', 'refused'])

/** The order status the shop keeps for a resultCode. */
function statusOf(resultCode: string): string {
  if (resultCode === 'Authorised') return 'authorised'
  if (resultCode === 'Refused' || resultCode === 'Cancelled' || resultCode === 'Error') return 'refused'
  return 'pending'
}

function orderOf(orders: OrderStore, orderId: number | string): OrderRow {
  const order = typeof orderId === 'number' ? orders.find(orderId) : undefined
  if (!order) throw new HttpError(404, 'ORDER_NOT_FOUND', 'orderId: no such order')
  return order
}

/**
 * Service refusals the page may show (the service's card messages); everything else is the shop's
 * problem. A TypeError (a wrong argument, found before anything was sent) is rethrown: an internal
 * error, never "unreachable".
 */
function fromService(error: unknown): never {
  // No answer within the deadline, or "not now" to the end of it: plain words, and a retry is safe (same idempotency key).
  if (error instanceof ServiceUnreachableError || (error instanceof ServiceError && RETRIED_STATUSES.has(error.status))) {
    throw new HttpError(
      503,
      'SERVICE_UNREACHABLE',
      'The payment service could not be reached. Try again in a moment; the order is never charged twice.',
    )
  }
  if (error instanceof ServiceError && error.status === 422 && error.errorCode.startsWith('CARD_'))
    throw new HttpError(422, error.errorCode, error.message)
  if (error instanceof ServiceError)
    throw new HttpError(502, 'SERVICE_ERROR', `the payment service refused the request (${error.errorCode})`)
  throw error
}

function record(context: PaymentsApiContext, order: OrderRow, response: PaymentResponse): void {
  const status = statusOf(response.resultCode)
  updateOrder(
    context.orders,
    order.id,
    {
      result_code: response.resultCode,
      status,
      ...(response.pspReference ? { psp_reference: response.pspReference } : {}),
      // A refused order may be paid again: the next attempt needs a new idempotency key.
      ...(status === 'refused' ? { payment_attempt: order.payment_attempt + 1 } : {}),
    },
    context.now(),
  )
}

/**
 * One key per payment attempt of an order: a retry (the service unreachable, or the shopper
 * submitting again after the shop restarted) gets the first payment back instead of a second one.
 */
const paymentKey = (order: OrderRow) => `${order.reference}-attempt-${order.payment_attempt}`

/** POST /api/payments (spec: Front-end contract 3, 4, 7). */
export async function postPayment(body: Buffer, request: IncomingMessage, context: PaymentsApiContext) {
  const parsed = parseJsonBody(body, PaymentSubmissionSchema)
  if (!parsed.ok) throw new HttpError(400, 'INVALID_SUBMISSION', parsed.error.message, parsed.error.issues)
  let order = orderOf(context.orders, parsed.value.orderId)
  const checked = checkSubmission(parsed.value, orderRecord(order))
  if (!checked.ok) throw new HttpError(422, 'ORDER_MISMATCH', 'the submission does not match the order', checked.problems)
  // A shopper who came Back from the bank, or cancelled a challenge that would not load, may pay
  // another way: a new attempt, with a new idempotency key. (Should the bank still authorise the
  // old one, the poller shows it.)
  const abandonedRedirect = order.status === 'pending' && ABANDONABLE.has(order.result_code ?? '')
  if (!PAYABLE.has(order.status) && !abandonedRedirect) throw new HttpError(409, 'ORDER_NOT_PAYABLE', `order is ${order.status}`)
  if (abandonedRedirect) {
    updateOrder(context.orders, order.id, { payment_attempt: order.payment_attempt + 1 }, context.now())
    order = orderOf(context.orders, order.id)
  }

  const completed = checked.submission.browserInfo
    ? completeBrowserInfo(checked.submission.browserInfo, { headers: request.headers, ip: request.socket.remoteAddress })
    : undefined
  const forward = buildPaymentRequest({
    order: orderRecord(order),
    submission: checked.submission,
    config: { returnUrl: (o) => `${context.shopUrl}/?orderId=${o.id}` },
    ...(completed ? { browserInfo: completed.browserInfo } : {}),
    ...(completed?.shopperIP ? { shopperIP: completed.shopperIP } : {}),
  })
  const { client, storeId } = context.client()
  const response = await client.createPayment(storeId, forward, { idempotencyKey: paymentKey(order) }).catch(fromService)
  // Stored before the browser hears anything (spec: Front-end contract 4).
  record(context, order, response)
  return toBrowserPaymentResult(response)
}

/** POST /api/payment-details: after a redirect or a 3-D Secure step. */
export async function postPaymentDetails(body: Buffer, context: PaymentsApiContext) {
  const parsed = parseJsonBody(body, DetailsSubmissionSchema)
  if (!parsed.ok) throw new HttpError(400, 'INVALID_SUBMISSION', parsed.error.message, parsed.error.issues)
  const order = orderOf(context.orders, parsed.value.orderId)
  if (order.status !== 'pending') throw new HttpError(409, 'ORDER_NOT_PENDING', `order is ${order.status}`)
  const { client, storeId } = context.client()
  // One key per shopper step of an attempt (the fingerprint, then the challenge), so a retry of a step is one step.
  const key = { idempotencyKey: `${paymentKey(order)}-details-${order.result_code ?? 'step'}` }
  const response = await client
    .paymentDetails(storeId, buildPaymentDetailsRequest(orderRecord(order), parsed.value), key)
    .catch(fromService)
  record(context, order, response)
  return toBrowserPaymentResult(response)
}

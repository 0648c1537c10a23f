import { z } from 'zod'
import { parseJsonBody } from '@card-jwe/payment-validator'
import { httpStatusOf, ShopBackendError, type ShopBackend } from '@card-jwe/shop-backend'
import { HttpError } from './http-error.js'
import type { OrderStore } from './order-store.js'

const AmountSchema = z.strictObject({ value: z.int().min(1).optional() })

export function listOrders(orders: OrderStore) {
  return orders.latest().map((o) => ({
    id: o.id,
    reference: o.reference,
    amount: { currency: o.currency, value: o.value },
    status: o.status,
    resultCode: o.result_code,
    pspReference: o.psp_reference,
    captured: o.captured,
    refunded: o.refunded,
    updatedAt: o.updated_at,
  }))
}

/** The back end's refusal as the admin page's error, with the status the back end's own routes give it. */
function fromBackend(error: unknown): never {
  if (error instanceof ShopBackendError) throw new HttpError(httpStatusOf(error.code), error.code, error.message, error.details)
  throw error
}

/**
 * Capture (full or partial), refund (full or partial) or cancel an order's payment, through the
 * back end's ledger (`backend.capture/refund/cancel`). The order's state changes when the poller
 * sees the service's update, not here: the service is the record.
 */
export async function modifyOrder(
  orders: OrderStore,
  backend: ShopBackend,
  orderId: number,
  action: 'capture' | 'refund' | 'cancel',
  body: Uint8Array,
  idempotencyKey: string | undefined,
) {
  // The page sends one key per click and the same key on a retry; without one, a retry is a new request.
  if (idempotencyKey !== undefined && !/^[A-Za-z0-9_-]{8,40}$/.test(idempotencyKey))
    throw new HttpError(400, 'INVALID_IDEMPOTENCY_KEY', 'idempotency-key: 8 to 40 characters of [A-Za-z0-9_-]')
  const order = orders.find(orderId)
  if (!order?.psp_reference) throw new HttpError(404, 'ORDER_NOT_FOUND', 'no paid order with this id')
  const parsed = parseJsonBody(body.length ? body : '{}', AmountSchema)
  if (!parsed.ok) throw new HttpError(400, 'INVALID_BODY', 'value: a whole number of minor units, at least 1')
  const value = parsed.value.value
  return backend[action](String(orderId), {
    ...(value !== undefined && action !== 'cancel' ? { amount: { currency: order.currency, value } } : {}),
    // The click's key, scoped to this order and action (the ledger's request ids are shop-wide).
    ...(idempotencyKey !== undefined ? { requestId: `${orderId}-${action}-${idempotencyKey}` } : {}),
  }).catch(fromBackend)
}

import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { parseJsonBody } from '@card-jwe/payment-validator'
import { ServiceError, ServiceUnreachableError, type ServiceClient } from '@card-jwe/service-client'
import { HttpError } from './http.js'
import type { OrderStore } from './order-store.js'

/** No answer from the service within the call's deadline: said as such, not as an internal error. */
const UNREACHABLE = 'The payment service could not be reached. Try again in a moment.'

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

/**
 * Capture (full or partial), refund (full or partial) or cancel an order's payment. The order's
 * state changes when the poller sees the service's update, not here: the service is the record.
 */
export async function modifyOrder(
  orders: OrderStore,
  client: ServiceClient,
  orderId: number,
  action: string,
  body: Buffer,
  idempotencyKey: string | undefined,
) {
  // The page sends one key per click and the same key on a retry; without one, a retry is a new request.
  if (idempotencyKey !== undefined && !/^[A-Za-z0-9_-]{8,40}$/.test(idempotencyKey))
    throw new HttpError(400, 'INVALID_IDEMPOTENCY_KEY', 'idempotency-key: 8 to 40 characters of [A-Za-z0-9_-]')
  const key = { idempotencyKey: `${orderId}-${action}-${idempotencyKey ?? randomUUID()}` }
  const order = orders.find(orderId)
  if (!order?.psp_reference) throw new HttpError(404, 'ORDER_NOT_FOUND', 'no paid order with this id')
  const parsed = parseJsonBody(body.length ? body : '{}', AmountSchema)
  if (!parsed.ok) throw new HttpError(400, 'INVALID_BODY', 'value: a whole number of minor units, at least 1')
  try {
    if (action === 'capture')
      return await client.capture(
        order.psp_reference,
        { currency: order.currency, value: parsed.value.value ?? order.value - order.captured },
        key,
      )
    if (action === 'refund')
      return await client.refund(
        order.psp_reference,
        { currency: order.currency, value: parsed.value.value ?? order.captured - order.refunded },
        key,
      )
    if (action === 'cancel') return await client.cancel(order.psp_reference, key)
  } catch (error) {
    if (error instanceof ServiceUnreachableError) throw new HttpError(503, 'SERVICE_UNREACHABLE', UNREACHABLE)
    if (error instanceof ServiceError) throw new HttpError(error.status === 422 ? 409 : 502, error.errorCode, error.message)
    throw error
  }
  throw new HttpError(404, 'NOT_FOUND', 'no such action')
}

import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { CATALOGUE, SHOP_CURRENCY } from './catalogue.js'
import type { OrderRecord } from '@card-jwe/payment-validator'
import type { OrderChanges, OrderStore } from './order-store.js'

export interface OrderRow {
  readonly id: number
  readonly reference: string
  readonly currency: string
  readonly value: number
  readonly items: string
  readonly status: string
  readonly result_code: string | null
  readonly psp_reference: string | null
  readonly payment_attempt: number
  readonly captured: number
  readonly refunded: number
  readonly created_at: string
  readonly updated_at: string
}

export const CartSchema = z.strictObject({
  items: z
    .array(z.strictObject({ sku: z.enum(CATALOGUE.map((p) => p.sku) as [string, ...string[]]), quantity: z.int().min(1).max(20) }))
    .min(1)
    .max(10),
})

/** An order from a cart: the amount is computed here, from the catalogue, never taken from the page. */
export function createOrder(orders: OrderStore, cart: z.infer<typeof CartSchema>, now: Date): OrderRow {
  const value = cart.items.reduce((sum, item) => sum + CATALOGUE.find((p) => p.sku === item.sku)!.price * item.quantity, 0)
  const reference = `order-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(4).toString('hex')}`
  const id = orders.insert({ reference, currency: SHOP_CURRENCY, value, items: JSON.stringify(cart.items) }, now.toISOString())
  return orders.find(id)!
}

export function orderRecord(order: OrderRow): OrderRecord {
  return { id: order.id, reference: order.reference, amount: { currency: order.currency, value: order.value } }
}

/** What the browser may see of an order: never the pspReference. */
export function publicOrder(order: OrderRow) {
  return { id: order.id, reference: order.reference, amount: { currency: order.currency, value: order.value }, status: order.status }
}

export function updateOrder(orders: OrderStore, id: number, changes: OrderChanges, now: Date): void {
  orders.update(id, changes, now.toISOString())
}

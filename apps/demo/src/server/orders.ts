import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { CATALOGUE, SHOP_CURRENCY } from './catalogue.js'
import type { OrderRecord } from '@card-jwe/payment-validator'
import type { ShopDb } from './db.js'

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
export function createOrder(db: ShopDb, cart: z.infer<typeof CartSchema>, now: Date): OrderRow {
  const value = cart.items.reduce((sum, item) => sum + CATALOGUE.find((p) => p.sku === item.sku)!.price * item.quantity, 0)
  const reference = `order-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(4).toString('hex')}`
  const at = now.toISOString()
  const { lastInsertRowid } = db
    .prepare("INSERT INTO orders (reference, currency, value, items, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'created', ?, ?)")
    .run(reference, SHOP_CURRENCY, value, JSON.stringify(cart.items), at, at)
  return findOrder(db, Number(lastInsertRowid))!
}

export function findOrder(db: ShopDb, id: number): OrderRow | undefined {
  return db.prepare('SELECT * FROM orders WHERE id = ?').get(id) as OrderRow | undefined
}

export function orderRecord(order: OrderRow): OrderRecord {
  return { id: order.id, reference: order.reference, amount: { currency: order.currency, value: order.value } }
}

/** What the browser may see of an order: never the pspReference. */
export function publicOrder(order: OrderRow) {
  return { id: order.id, reference: order.reference, amount: { currency: order.currency, value: order.value }, status: order.status }
}

export function updateOrder(
  db: ShopDb,
  id: number,
  changes: Partial<Pick<OrderRow, 'status' | 'result_code' | 'psp_reference' | 'payment_attempt' | 'captured' | 'refunded'>>,
  now: Date,
): void {
  const columns = Object.keys(changes)
  db.prepare(`UPDATE orders SET ${columns.map((c) => `${c} = @${c}`).join(', ')}, updated_at = @updated_at WHERE id = @id`).run({
    ...changes,
    id,
    updated_at: now.toISOString(),
  })
}

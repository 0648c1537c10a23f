import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { CATALOGUE, SHOP_CURRENCY } from './catalogue.js'
import type { OrderRecord } from '@card-jwe/payment-validator'
import { PAID_STATES, type AttemptState, type OrderChange } from '@card-jwe/shop-backend'
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
  readonly payment_version: number
  readonly captured: number
  readonly refunded: number
  readonly created_at: string
  readonly updated_at: string
  /** The signed-in shopper who made the order; null for a guest's. */
  readonly shopper_reference: string | null
}

export const CartSchema = z.strictObject({
  items: z
    .array(z.strictObject({ sku: z.enum(CATALOGUE.map((p) => p.sku) as [string, ...string[]]), quantity: z.int().min(1).max(20) }))
    .min(1)
    .max(10),
})

/**
 * An order from a cart: the amount is computed here, from the catalogue, never taken from the page;
 * the shopper is the session's (`shopperReference`), never the page's.
 */
export function createOrder(orders: OrderStore, cart: z.infer<typeof CartSchema>, now: Date, shopperReference?: string): OrderRow {
  const value = cart.items.reduce((sum, item) => sum + CATALOGUE.find((p) => p.sku === item.sku)!.price * item.quantity, 0)
  const reference = `order-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(4).toString('hex')}`
  const items = JSON.stringify(cart.items)
  const id = orders.insert(
    { reference, currency: SHOP_CURRENCY, value, items, shopper_reference: shopperReference ?? null },
    now.toISOString(),
  )
  return orders.find(id)!
}

export function orderRecord(order: OrderRow): OrderRecord {
  return {
    id: order.id,
    reference: order.reference,
    amount: { currency: order.currency, value: order.value },
    ...(order.shopper_reference === null ? {} : { shopperReference: order.shopper_reference }),
  }
}

/**
 * What the browser may see of an order: never the pspReference nor the shopper's id; only whether
 * a signed-in shopper made it (so the page offers to save the card).
 */
export function publicOrder(order: OrderRow) {
  return {
    id: order.id,
    reference: order.reference,
    amount: { currency: order.currency, value: order.value },
    status: order.status,
    signedIn: order.shopper_reference !== null,
  }
}

export function updateOrder(orders: OrderStore, id: number, changes: OrderChanges, now: Date): void {
  orders.update(id, changes, now.toISOString())
}

/**
 * The shop's order by the back end's id (digits only); undefined when there is none, or when
 * `visible` hides it from the request at hand (another shopper's order).
 */
export function findOrderRecord(
  orders: OrderStore,
  orderId: string,
  visible: (order: OrderRow | undefined) => OrderRow | undefined = (order) => order,
): OrderRecord | undefined {
  if (!/^\d{1,12}$/.test(orderId)) return undefined
  const order = visible(orders.find(Number(orderId)))
  return order ? orderRecord(order) : undefined
}

/** The order status the shop shows (and the admin's table knows) for a ledger state. */
export function statusOfState(state: AttemptState): string {
  if (state === 'action_required') return 'pending'
  if (state === 'error') return 'refused'
  return state
}

const isPaid = (status: string) => (PAID_STATES as ReadonlySet<string>).has(status)

/**
 * The back end's `onOrderChange`: sets (never adds to) the order's state, result, pspReference and
 * amounts from the ledger. Delivery is at least once (a late copy of an older change is ignored by its
 * version); news of an older
 * attempt (one abandoned at the bank) does not undo a newer one, unless it is a payment the newer
 * one is not.
 */
export function applyOrderChange(orders: OrderStore, change: OrderChange, now: Date): void {
  const order = /^\d{1,12}$/.test(change.orderId) ? orders.find(Number(change.orderId)) : undefined
  if (!order) return
  const status = statusOfState(change.state)
  if (change.attempt < order.payment_attempt && !(isPaid(status) && !isPaid(order.status))) return
  // The same attempt's older change, heard late (delivery is at least once, from any instance).
  if (change.attempt === order.payment_attempt && change.version <= order.payment_version) return
  updateOrder(
    orders,
    order.id,
    {
      status,
      payment_attempt: Math.max(order.payment_attempt, change.attempt),
      payment_version: change.attempt >= order.payment_attempt ? change.version : order.payment_version,
      ...(change.resultCode ? { result_code: change.resultCode } : {}),
      ...(change.pspReference ? { psp_reference: change.pspReference } : {}),
      captured: change.capturedValue,
      refunded: change.refundedValue,
    },
    now,
  )
}

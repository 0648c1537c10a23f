import { randomBytes } from 'node:crypto'
import * as z from 'zod'
import { CATALOGUE, SHOP_CURRENCY } from './catalogue.js'
import type { OrderRecord } from '@card-jwe/payment-validator'
import { PAID_STATES, type AttemptState, type OrderChange, ABANDONABLE_RESULT_CODES } from '@card-jwe/shop-backend'
import type { OrderChanges, OrderStore } from './order-store.js'
import { DEMO_SHOPPER, lineItemsOf } from './order-lines.js'
import { captureTimingLabel } from './capture-timing.js'

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
  /** When its money is taken: null by the merchant, 0 at payment, n hours after. */
  readonly capture_delay_hours: number | null
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
export function createOrder(
  orders: OrderStore,
  cart: z.infer<typeof CartSchema>,
  now: Date,
  placed: { readonly shopperReference?: string | undefined; readonly captureDelayHours?: number | null } = {},
): OrderRow {
  const value = cart.items.reduce((sum, item) => sum + CATALOGUE.find((p) => p.sku === item.sku)!.price * item.quantity, 0)
  const reference = `order-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(4).toString('hex')}`
  const id = orders.insert(
    {
      reference,
      currency: SHOP_CURRENCY,
      value,
      items: JSON.stringify(cart.items),
      shopper_reference: placed.shopperReference ?? null,
      capture_delay_hours: placed.captureDelayHours ?? null,
    },
    now.toISOString(),
  )
  return orders.find(id)!
}

/** What the back end pays from: the amount, the lines from the basket, the demo shopper, and when money is taken. */
export function orderRecord(order: OrderRow): OrderRecord {
  return {
    id: order.id,
    reference: order.reference,
    amount: { currency: order.currency, value: order.value },
    ...(order.shopper_reference === null ? {} : { shopperReference: order.shopper_reference }),
    shopperEmail: DEMO_SHOPPER.email,
    billingAddress: DEMO_SHOPPER.billingAddress,
    lineItems: lineItemsOf(JSON.parse(order.items) as Array<{ sku: string; quantity: number }>),
    ...(order.capture_delay_hours === null ? {} : { captureDelayHours: order.capture_delay_hours }),
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
    moneyTaken: captureTimingLabel(order.capture_delay_hours),
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
  if (state === 'action_required' || state === 'confirming') return 'pending'
  if (state === 'error') return 'refused'
  return state
}

/** The order's status says it is paid (authorised, captured or refunded, in part or whole). */
export const isPaid = (status: string) => (PAID_STATES as ReadonlySet<string>).has(status)

/**
 * The followed attempt is being confirmed or its outcome is open: the back end holds the order for it.
 * Pending at a shopper's step (the back end's abandonable codes) is waiting for the shopper instead.
 */
const heldFor = (order: OrderRow) => order.status === 'pending' && !ABANDONABLE_RESULT_CODES.has(order.result_code ?? '')

/**
 * The back end's `onOrderChange`: sets (never adds to) the order's state, result, pspReference and
 * amounts from the ledger, following one attempt. Delivery is at least once, so a late copy of the
 * followed attempt's older change is ignored by its version. Once an attempt has paid, the order
 * follows it alone (its capture, refund, cancel) and the other attempts' news is ignored (a card
 * refused after an earlier bank payment went through); before, it follows a paying attempt, one
 * being confirmed (the back end holds the order for it, and only another's payment moves it), or the
 * newest.
 */
export function applyOrderChange(orders: OrderStore, change: OrderChange, now: Date): void {
  const order = /^\d{1,12}$/.test(change.orderId) ? orders.find(Number(change.orderId)) : undefined
  if (!order) return
  const status = statusOfState(change.state)
  if (change.attempt === order.payment_attempt) {
    if (change.version <= order.payment_version) return
  } else if (
    isPaid(order.status) ||
    (!isPaid(status) && (heldFor(order) || (change.attempt < order.payment_attempt && change.state !== 'confirming')))
  )
    return
  updateOrder(
    orders,
    order.id,
    {
      status,
      payment_attempt: change.attempt,
      payment_version: change.version,
      ...(change.resultCode ? { result_code: change.resultCode } : {}),
      ...(change.pspReference ? { psp_reference: change.pspReference } : {}),
      captured: change.capturedValue,
      refunded: change.refundedValue,
    },
    now,
  )
}

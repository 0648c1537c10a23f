import type { OrderStore } from './order-store.js'
import { captureTimingLabel } from './capture-timing.js'
import { lineItemsOf } from './order-lines.js'
import { isPaid } from './orders.js'

/** The admin's order table; capture, refund, cancel and the problems are the back end's admin routes. */
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
    moneyTaken: captureTimingLabel(o.capture_delay_hours),
    // The lines its payment sent (the order's basket, as findOrder gives it): a refund may give one back.
    lines: lineItemsOf(JSON.parse(o.items) as Array<{ sku: string; quantity: number }>).map((l) => ({
      id: l.id,
      description: l.description,
      quantity: l.quantity,
      amountIncludingTax: l.amountIncludingTax,
    })),
    updatedAt: o.updated_at,
    // A paid order of a signed-in shopper can be renewed on their saved card (renewals.ts).
    renewable: o.shopper_reference !== null && isPaid(o.status),
  }))
}

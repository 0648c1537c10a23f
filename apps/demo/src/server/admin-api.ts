import { PAID_STATES } from '@card-jwe/shop-backend'
import type { OrderStore } from './order-store.js'

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
    updatedAt: o.updated_at,
    // A paid order of a signed-in shopper can be renewed on their saved card (renewals.ts).
    renewable: o.shopper_reference !== null && (PAID_STATES as ReadonlySet<string>).has(o.status),
  }))
}

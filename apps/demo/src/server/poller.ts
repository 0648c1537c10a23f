import type { KnownPaymentStatus, PaymentStatus, ServiceClient } from '@card-jwe/service-client'
import type { ChangeStore } from './change-store.js'
import type { OrderStore } from './order-store.js'
import { updateOrder } from './orders.js'

/** How often the shop asks the service for changed payments (spec: "Events", polling only). */
export const DEFAULT_POLL_INTERVAL_MS = 5_000

/** The order status the shop shows for the service's payment status; typed, so a status the client learns must be mapped here. */
const ORDER_STATUS: Readonly<Record<KnownPaymentStatus, string>> = {
  identify_shopper: 'pending',
  challenge_shopper: 'pending',
  redirect_shopper: 'pending',
  authorised: 'authorised',
  partially_captured: 'partially_captured',
  captured: 'captured',
  partially_refunded: 'partially_refunded',
  refunded: 'refunded',
  cancelled: 'cancelled',
  refused: 'refused',
}

/** A status newer than this shop is kept as the service names it (the admin shows the code). */
const orderStatusOf = (status: PaymentStatus): string =>
  Object.hasOwn(ORDER_STATUS, status) ? ORDER_STATUS[status as KnownPaymentStatus] : status

/**
 * Reads updated-payments from the stored cursor and applies each change to its order, matched by
 * the echoed metadata.shop_order_id; the cursor moves in the same transaction as the changes, so
 * a crash neither loses nor repeats one; seen_changes keeps each sequence once, so a repeat fails loudly.
 */
export async function pollOnce(
  { orders, changes }: { orders: OrderStore; changes: ChangeStore },
  client: ServiceClient,
  now: () => Date,
): Promise<number> {
  let applied = 0
  for (;;) {
    const page = await client.updatedPayments({ after: changes.cursor(), limit: 100 })
    changes.inTransaction(() => {
      for (const change of page.payments) {
        changes.recordSeen(change, now().toISOString())
        const orderId = Number((change.metadata as { shop_order_id?: unknown }).shop_order_id)
        if (!Number.isInteger(orderId)) continue
        updateOrder(
          orders,
          orderId,
          { status: orderStatusOf(change.status), captured: change.capturedAmount.value, refunded: change.refundedAmount.value },
          now(),
        )
        // A payment whose answer never reached the shop (a crash between the service's answer and our
        // write) is matched here by its metadata, so its pspReference still lands on the order.
        orders.setPspReferenceIfUnset(orderId, change.pspReference)
        applied++
      }
      changes.setCursor(page.cursor)
    })
    if (!page.hasMore) return applied
  }
}

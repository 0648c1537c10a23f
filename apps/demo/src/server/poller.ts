import type { KnownPaymentStatus, PaymentStatus, ServiceClient } from '@card-jwe/service-client'
import { updateOrder } from './orders.js'
import type { ShopDb } from './db.js'

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
export async function pollOnce(db: ShopDb, client: ServiceClient, now: () => Date): Promise<number> {
  const read = () =>
    Number((db.prepare("SELECT value FROM settings WHERE id = 'poll_cursor'").get() as { value: string } | undefined)?.value ?? 0)
  let applied = 0
  for (;;) {
    const page = await client.updatedPayments({ after: read(), limit: 100 })
    db.transaction(() => {
      for (const change of page.payments) {
        db.prepare('INSERT INTO seen_changes (sequence, psp_reference, status, applied_at) VALUES (?, ?, ?, ?)').run(
          change.sequence,
          change.pspReference,
          change.status,
          now().toISOString(),
        )
        const orderId = Number((change.metadata as { shop_order_id?: unknown }).shop_order_id)
        if (!Number.isInteger(orderId)) continue
        updateOrder(
          db,
          orderId,
          { status: orderStatusOf(change.status), captured: change.capturedAmount.value, refunded: change.refundedAmount.value },
          now(),
        )
        // A payment whose answer never reached the shop (a crash between the service's answer and our
        // write) is matched here by its metadata, so its pspReference still lands on the order.
        db.prepare('UPDATE orders SET psp_reference = ? WHERE id = ? AND psp_reference IS NULL').run(change.pspReference, orderId)
        applied++
      }
      db.prepare("INSERT INTO settings (id, value) VALUES ('poll_cursor', ?) ON CONFLICT(id) DO UPDATE SET value = excluded.value").run(
        String(page.cursor),
      )
    })()
    if (!page.hasMore) return applied
  }
}

/**
 * The admin's renewal of a subscription: a new order for the same basket and shopper, charged to
 * the shopper's saved card without the shopper (`backend.chargeSavedCard`, model `Subscription`).
 * The renewal order is stored with the click's requestId before anything is charged, so a repeat of
 * the click charges that same order (which the ledger answers from its attempt), never a second one.
 */
import type { HttpBindings } from '@hono/node-server'
import type { Hono } from 'hono'
import * as z from 'zod'
import { parseJsonBody } from '@card-jwe/payment-validator'
import type { ShopBackend } from '@card-jwe/shop-backend'
import { shownCard } from './account-api.js'
import type { ShopDb } from './db.js'
import { HttpError, json } from './http-error.js'
import type { OrderStore } from './order-store.js'
import { CartSchema, createOrder, isPaid, publicOrder, type OrderRow } from './orders.js'

const RenewalSchema = z.strictObject({ orderId: z.int().min(1), requestId: z.uuid() })

export function addRenewalRoute(
  app: Hono<{ Bindings: HttpBindings }>,
  deps: {
    readonly db: ShopDb
    readonly orders: OrderStore
    readonly backend: ShopBackend
    readonly now: () => Date
    /** When a new order's money is taken, as the admin set it: a renewal is a new order like any other. */
    readonly captureDelayHours: () => number | null
  },
): void {
  const { db, orders, backend } = deps
  const byRequest = db.prepare('SELECT order_id FROM renewals WHERE request_id = ?')
  const record = db.prepare('INSERT INTO renewals (request_id, order_id, renews_order_id) VALUES (?, ?, ?)')
  /** The click's renewal order: made with its requestId in one transaction, or the one made before. */
  const renewalOrder = db.transaction((requestId: string, original: OrderRow & { shopper_reference: string }): OrderRow => {
    const known = byRequest.get(requestId) as { order_id: number } | undefined
    if (known) return orders.find(known.order_id)!
    // Only a paid order is renewed (the page offers no other); a repeat above answers whatever it is now.
    if (!isPaid(original.status)) throw new HttpError(409, 'ORDER_NOT_RENEWABLE', 'orderId: only a paid order is renewed')
    const cart = CartSchema.parse({ items: JSON.parse(original.items) })
    const order = createOrder(orders, cart, deps.now(), {
      shopperReference: original.shopper_reference ?? undefined,
      captureDelayHours: deps.captureDelayHours(),
    })
    record.run(requestId, order.id, original.id)
    return order
  })

  app.post('/api/admin/renewals', async (c) => {
    const body = parseJsonBody(new Uint8Array(await c.req.raw.arrayBuffer()), RenewalSchema)
    if (!body.ok) throw new HttpError(400, 'INVALID_REQUEST', body.error.message)
    const original = orders.find(body.value.orderId)
    if (!original) throw new HttpError(404, 'ORDER_NOT_FOUND', 'orderId: no such order')
    const shopperReference = original.shopper_reference
    if (shopperReference === null) throw new HttpError(422, 'NO_SHOPPER', 'orderId: a guest’s order has no saved card to renew with')
    const [card] = await backend.savedCards(shopperReference)
    if (!card) throw new HttpError(422, 'NO_SAVED_CARD', 'orderId: its shopper has no saved card')
    const renewal = renewalOrder(body.value.requestId, { ...original, shopper_reference: shopperReference })
    const result = await backend.chargeSavedCard(String(renewal.id), {
      storedPaymentMethodId: card.id,
      recurringProcessingModel: 'Subscription',
    })
    return json(200, { order: publicOrder(orders.find(renewal.id)!), card: shownCard(card), ...result })
  })
}

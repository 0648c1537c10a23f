/**
 * The signed-in shopper's account: their saved cards at the payment service, and removal of one
 * (the service's unsubscribe, through the shop back end). The shopper is the session's, never the page's.
 */
import type { HttpBindings } from '@hono/node-server'
import type { Hono } from 'hono'
import * as z from 'zod'
import { parseJsonBody, StoredPaymentMethodIdSchema } from '@card-jwe/payment-validator'
import type { ShopBackend } from '@card-jwe/shop-backend'
import { HttpError, json } from './http-error.js'
import { signedInShopper } from './shopper-session.js'

const RemovalSchema = z.strictObject({ storedPaymentMethodId: StoredPaymentMethodIdSchema })

/** What the pages show of a card: enough to tell the cards apart, nothing more (no holder's name). */
export function shownCard(card: Record<string, unknown>) {
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined)
  return {
    id: card.id,
    brand: text(card.brand),
    lastFour: text(card.lastFour),
    expiryMonth: text(card.expiryMonth),
    expiryYear: text(card.expiryYear),
  }
}

export function addAccountRoutes(app: Hono<{ Bindings: HttpBindings }>, backend: ShopBackend): void {
  app.get('/api/account/saved-cards', async () => json(200, (await backend.savedCards(signedInShopper())).map(shownCard)))
  app.post('/api/account/saved-cards/remove', async (c) => {
    const shopperReference = signedInShopper()
    const body = parseJsonBody(new Uint8Array(await c.req.raw.arrayBuffer()), RemovalSchema)
    if (!body.ok) throw new HttpError(400, 'INVALID_REQUEST', body.error.message)
    await backend.removeSavedCard({ shopperReference, storedPaymentMethodId: body.value.storedPaymentMethodId })
    return json(200, { removed: body.value.storedPaymentMethodId })
  })
}

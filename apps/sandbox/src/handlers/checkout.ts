import * as z from 'zod'
import { authenticate } from '../authenticate.js'
import { notFound, SandboxError } from '../errors.js'
import { jsonOf } from '../http/parse-body.js'
import { json } from '../http/json.js'
import { enabledMethods, ownedStore } from '../merchant-store.js'
import { claimOf, keepAnswer, keptAnswer } from '../idempotency.js'
import { findPayment } from '../payment-store.js'
import type { SandboxContext } from '../context.js'
import type { RequestContext } from '../http/handler.js'
import { KLARNA_COUNTRIES } from './order-terms.js'

const CARD_BRANDS = ['visa', 'mc', 'amex', 'discover', 'diners', 'jcb', 'cup', 'maestro', 'bcmc']

/**
 * GET .../checkout-payment-methods?country=NL&currency=EUR&shopper=REF: card, iDEAL and klarna, and the
 * shopper's stored cards (brand and last four only), in the shape the front-end library takes.
 */
export async function checkoutPaymentMethods(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  const enabled = enabledMethods(ownedStore(context, shop, c.req.param('store_id')!))
  const country = c.req.query('country')
  const currency = c.req.query('currency')
  const shopper = c.req.query('shopper')
  if ((country && !/^[A-Z]{2}$/.test(country)) || (currency && !/^[A-Z]{3}$/.test(currency)) || (shopper && !/^.{3,256}$/.test(shopper))) {
    throw new SandboxError('INVALID_REQUEST', 'query: country is two capital letters, currency three, shopper 3-256 characters')
  }
  const stored = shopper ? context.payments.storedMethodsOf(shop.shop_id, shopper) : []
  return json({
    // Only what the store has turned on (PUT .../payment-methods); iDEAL only for the Netherlands, klarna where it serves.
    paymentMethods: [
      ...(enabled.includes('scheme') ? [{ type: 'scheme', name: 'Cards', brands: CARD_BRANDS }] : []),
      ...(enabled.includes('ideal') && (country === undefined || country === 'NL') ? [{ type: 'ideal', name: 'iDEAL' }] : []),
      ...(enabled.includes('klarna') && (country === undefined || KLARNA_COUNTRIES.has(country))
        ? [{ type: 'klarna', name: 'Pay later with Klarna' }]
        : []),
    ],
    ...(shopper
      ? {
          storedPaymentMethods: stored.map((m) => ({
            id: m.id,
            type: 'scheme',
            brand: m.brand,
            lastFour: m.last_four,
            expiryMonth: m.expiry_month,
            expiryYear: m.expiry_year,
            supportedShopperInteractions: ['Ecommerce'],
          })),
        }
      : {}),
  })
}

/** GET .../stores/{store_id}/client-key and GET .../web-component-client-key (shape not shown: `{clientKey}`). */
export async function clientKey(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  const storeId = c.req.param('store_id')
  if (storeId !== undefined) ownedStore(context, shop, storeId)
  return json({ clientKey: shop.client_key })
}

const UnsubscribeSchema = z.strictObject({ shopperReference: z.string().min(3).max(256), storedPaymentMethodId: z.string().min(1).max(64) })

/** POST .../unsubscribe-requests: disables one stored method of one shopper (body not shown in the spec). */
export async function unsubscribe(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  ownedStore(context, shop, c.req.param('store_id')!)
  const parsed = UnsubscribeSchema.safeParse(jsonOf(c))
  if (!parsed.success) throw new SandboxError('INVALID_REQUEST', 'unsubscribe needs shopperReference and storedPaymentMethodId')
  const claim = claimOf(c, shop, [c.req.param('store_id'), parsed.data])
  const kept = keptAnswer(context, claim)
  if (kept) return kept
  return context.db.transaction(() => {
    const changed = context.payments.disableStoredMethod(parsed.data.storedPaymentMethodId, shop.shop_id, parsed.data.shopperReference)
    if (!changed) throw notFound('stored payment method')
    return keepAnswer(context, claim, { status: 'disabled', storedPaymentMethodId: parsed.data.storedPaymentMethodId })
  })()
}

/** POST /shopplatform/processor/payments/{psp_reference}/subject-erasure-requests: forgets the shopper of one payment. */
export async function subjectErasure(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  const row = findPayment(context, 'psp_reference', c.req.param('psp_reference')!)
  if (!row || row.shop_id !== shop.shop_id) throw notFound('payment')
  context.payments.eraseShopper(row.psp_reference, context.now().toISOString())
  return json({ pspReference: row.psp_reference, status: 'received' }, 201)
}

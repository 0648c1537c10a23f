/**
 * The demo's sign-in: one test shopper, signed in by a button. The session is an HttpOnly,
 * SameSite=Strict cookie holding a random token; the shop keeps only the token's SHA-256. Orders
 * made while signed in belong to that shopper (their `shopperReference`, from the shop's records,
 * never the page), and a page request sees such an order only with that shopper's session.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { createHash, randomBytes } from 'node:crypto'
import type { HttpBindings } from '@hono/node-server'
import type { Hono, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { ShopDb } from './db.js'
import { HttpError, json } from './http-error.js'
import type { OrderRow } from './orders.js'

/** The one shopper of the demo's sign-in: its id at the payment service (`shopperReference`). */
export const TEST_SHOPPER = 'demo-test-shopper'
const COOKIE = 'shopper_session'

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')

/** The shopper of the page request being answered; undefined outside one (the poller, the admin's renewals). */
const pageRequest = new AsyncLocalStorage<{ readonly shopperReference: string | undefined }>()

/**
 * An order as a page request may see it: a signed-in shopper's order only in that shopper's session
 * (its saved cards, its payment). Outside a page request (the back end's poller, a renewal) every order.
 */
export function visibleOrder(order: OrderRow | undefined): OrderRow | undefined {
  const request = pageRequest.getStore()
  if (!order || !request || order.shopper_reference === null) return order
  return order.shopper_reference === request.shopperReference ? order : undefined
}

/** The signed-in shopper of this page request, if any. */
export const currentShopper = (): string | undefined => pageRequest.getStore()?.shopperReference

/** The signed-in shopper of this page request, or a 401 naming the rule. */
export function signedInShopper(): string {
  const shopperReference = currentShopper()
  if (shopperReference === undefined) throw new HttpError(401, 'SIGNED_OUT', 'session: sign in as the test shopper first')
  return shopperReference
}

/**
 * The session routes under /api/shopper, and the middleware that tells each of the pages' /api/
 * requests its shopper. The admin's (/api/admin/) are the shop owner's: they see every order.
 */
export function addShopperSession(app: Hono<{ Bindings: HttpBindings }>, db: ShopDb, now: () => Date): void {
  const insert = db.prepare('INSERT INTO shopper_sessions (token_hash, shopper_reference, created_at) VALUES (?, ?, ?)')
  const find = db.prepare('SELECT shopper_reference FROM shopper_sessions WHERE token_hash = ?')
  const remove = db.prepare('DELETE FROM shopper_sessions WHERE token_hash = ?')
  const shopperOf = (token: string | undefined) =>
    token ? (find.get(hashOf(token)) as { shopper_reference: string } | undefined)?.shopper_reference : undefined

  const withShopper: MiddlewareHandler = (c, next) =>
    c.req.path.startsWith('/api/admin/') ? next() : pageRequest.run({ shopperReference: shopperOf(getCookie(c, COOKIE)) }, next)
  app.use('/api/*', withShopper)
  app.get('/api/shopper', () => json(200, { signedIn: currentShopper() !== undefined }))
  app.post('/api/shopper/sign-in', (c) => {
    const token = randomBytes(32).toString('base64url')
    insert.run(hashOf(token), TEST_SHOPPER, now().toISOString())
    setCookie(c, COOKIE, token, { httpOnly: true, sameSite: 'Strict', path: '/' })
    return c.json({ signedIn: true }, 200, { 'cache-control': 'no-store' })
  })
  app.post('/api/shopper/sign-out', (c) => {
    const token = getCookie(c, COOKIE)
    if (token) remove.run(hashOf(token))
    deleteCookie(c, COOKIE, { path: '/' })
    return c.json({ signedIn: false }, 200, { 'cache-control': 'no-store' })
  })
}

/**
 * The admin routes over loopback HTTP (node:http through toNodeListener, and Express 5 once) against
 * the real sandbox, on SQLite and on PostgreSQL: refused without the shop's sign-in before the body is
 * read; an order's payments; capture, refund and cancel with the page's requestId, counted at the
 * sandbox; a poll problem and a waiting delivery shown, retried and dismissed.
 */
import express from 'express'
import Fastify from 'fastify'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shopBackendHandler } from '../src/express/index.js'
import { shopBackendPlugin } from '../src/fastify/index.js'
import type { LedgerStore, OrderChange, ShopBackendOptions, ShopOrder } from '../src/index.js'
import { toNodeListener } from '../src/node/index.js'
import { listen } from './support/listen.js'
import { type Ledger, onPostgres, onSqlite } from './support/ledgers.js'
import { postgres } from './support/postgres.js'
import { startShop, startWorld, type TestShop, type World } from './support/shop.js'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())

// biome-ignore lint/suspicious/noExplicitAny: a JSON answer, read field by field in the assertions
type Json = any

const SIGNED_IN = 'Bearer operator-session-7f3a9c21'
const EUR = (value: number) => ({ currency: 'EUR', value })

interface AdminShop {
  readonly shop: TestShop
  readonly ledger: LedgerStore
  readonly url: string
  /** What authorize was asked about: method, path and whether a body had been read. */
  readonly asked: Array<{ method: string; path: string; bodyUsed: boolean }>
  get(path: string, signedIn?: boolean): Promise<{ status: number; body: Json; cacheControl: string | null; text: string }>
  post(path: string, body: unknown, signedIn?: boolean): Promise<{ status: number; body: Json; text: string }>
  /** A new order paid by card: its pspReference. */
  paid(order: ShopOrder): Promise<string>
}

/** A shop with the admin routes, served over loopback by node:http; closed after the test. */
async function adminShop(
  ledger: Ledger,
  overrides: Partial<Omit<ShopBackendOptions, 'secretKey'>> = {},
  wrap: (store: LedgerStore) => LedgerStore = (store) => store,
): Promise<AdminShop & { close(): Promise<void> }> {
  const asked: AdminShop['asked'] = []
  const { store, drop } = await ledger()
  const shop = await startShop(world, {
    ...(store ? { store: wrap(store) } : { wrapStore: wrap }),
    admin: {
      authorize(request) {
        asked.push({ method: request.method, path: new URL(request.url).pathname, bodyUsed: request.bodyUsed })
        return request.headers.get('authorization') === SIGNED_IN
      },
    },
    ...overrides,
  })
  const server = await listen(toNodeListener(shop.backend))
  const headers = (signedIn: boolean): Record<string, string> => (signedIn ? { authorization: SIGNED_IN } : {})
  const reads = store ?? shop.store
  return {
    shop,
    ledger: reads,
    url: server.url,
    asked,
    async get(path, signedIn = true) {
      const response = await fetch(`${server.url}${path}`, { headers: headers(signedIn) })
      const text = await response.text()
      return { status: response.status, body: JSON.parse(text), cacheControl: response.headers.get('cache-control'), text }
    },
    async post(path, body, signedIn = true) {
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers(signedIn) },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      })
      const text = await response.text()
      return { status: response.status, body: JSON.parse(text), text }
    },
    async paid(order) {
      expect((await shop.post('/api/payments', await shop.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
      return (await reads.listAttempts(String(order.id)))[0]!.pspReference!
    },
    async close() {
      await server.close()
      await shop.close()
      await drop()
    },
  }
}

const variants = [
  { name: 'SQLite', ledger: onSqlite, skip: false },
  { name: 'PostgreSQL', ledger: onPostgres('admin'), skip: postgres.missing !== undefined },
]

describe('admin routes: where they are', () => {
  it("under a basePath of the shop's choosing: handles() matches its routes and nothing beside them", async () => {
    const shop = await startShop(world, { admin: { authorize: () => true, basePath: '/shop-admin.v2' } })
    try {
      expect(shop.backend.handles('/shop-admin.v2/orders/1001/capture')).toBe(true)
      expect(shop.backend.handles('/shop-admin.v2/problems')).toBe(true)
      expect(shop.backend.handles('/shop-admin.v2/problems/12/dismiss')).toBe(true)
      // A dot is a dot, a parameter one segment.
      expect(shop.backend.handles('/shop-adminXv2/problems')).toBe(false)
      expect(shop.backend.handles('/shop-admin.v2/orders/1001/items/capture')).toBe(false)
      expect(shop.backend.handles('/shop-admin.v2/orders')).toBe(false)
      expect(shop.backend.handles('/api/admin/problems')).toBe(false)
      expect(shop.backend.paths).toContain('/shop-admin.v2/orders/:orderId')
    } finally {
      await shop.close()
    }
  })
})

describe('admin routes: what a failure logs', () => {
  it("names the path with any card-length run of digits redacted: an order id in the path is the caller's text", async () => {
    const log: string[] = []
    const shop = await startShop(world, {
      log: (line) => log.push(line),
      admin: {
        authorize: () => {
          throw new Error('the sign-in service is down')
        },
      },
    })
    try {
      const response = await shop.backend.fetch(new Request('http://shop.test/api/admin/orders/5555444433331111'))
      expect(response.status).toBe(500)
      expect(log).toEqual(['GET /api/admin/orders/[digits] failed (Error)'])
    } finally {
      await shop.close()
    }
  })
})

describe('admin routes: without the option', () => {
  it('serves no admin path: 404 as any path the back end does not serve', async () => {
    const shop = await startShop(world)
    try {
      const response = await shop.backend.fetch(new Request('http://shop.test/api/admin/problems'))
      expect(response.status).toBe(404)
      expect(await response.json()).toMatchObject({ error: 'NOT_FOUND' })
      expect(shop.backend.handles('/api/admin/problems')).toBe(false)
      expect(shop.backend.paths.some((path) => path.startsWith('/api/admin'))).toBe(false)
    } finally {
      await shop.close()
    }
  })
})

for (const variant of variants) {
  describe.skipIf(variant.skip)(`admin routes on ${variant.name}`, () => {
    const withAdmin =
      (run: (admin: AdminShop) => Promise<void>, overrides?: Partial<Omit<ShopBackendOptions, 'secretKey'>>) => async () => {
        const admin = await adminShop(variant.ledger, overrides)
        try {
          await run(admin)
        } finally {
          await admin.close()
        }
      }

    it(
      'refuses a request the shop does not sign in with 403, before its body is read or anything is sent',
      withAdmin(async (admin) => {
        const order = admin.shop.createOrder(2800)
        const psp = await admin.paid(order)
        const captures = world.proxy.counted('POST', '/captures')
        // Not JSON, not even a valid body: the answer is the sign-in's, not the body's.
        const refused = await fetch(`${admin.url}/api/admin/orders/${order.id}/capture`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'amount=2800',
        })
        expect(refused.status).toBe(403)
        expect(refused.headers.get('cache-control')).toBe('no-store')
        expect(await refused.json()).toMatchObject({ error: 'FORBIDDEN' })
        expect(admin.asked.at(-1)).toEqual({ method: 'POST', path: `/api/admin/orders/${order.id}/capture`, bodyUsed: false })
        for (const path of [`/api/admin/orders/${order.id}`, '/api/admin/problems', '/api/admin/no-such-route']) {
          expect(await admin.get(path, false)).toMatchObject({ status: 403, body: { error: 'FORBIDDEN' } })
        }
        expect(await admin.post(`/api/admin/orders/${order.id}/cancel`, {}, false)).toMatchObject({ status: 403 })
        expect(world.proxy.counted('POST', '/captures')).toBe(captures)
        expect(world.sandboxModifications(psp, 'cancel')).toBe(0)
        // Signed in: an unknown admin path is a 404, a form's content type a 415.
        expect(await admin.get('/api/admin/no-such-route')).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } })
        const form = await fetch(`${admin.url}/api/admin/orders/${order.id}/cancel`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: SIGNED_IN },
          body: 'x=1',
        })
        expect(form.status).toBe(415)
      }),
    )

    it(
      'answers an order id no ledger holds (a NUL, a control character, 257 characters) 404 with the rule, never a 500',
      withAdmin(async (admin) => {
        const rule = 'orderId: no such order (1 to 256 characters, no control character)'
        for (const id of ['%00', 'a%00b', '%1F', 'x'.repeat(257)]) {
          expect(await admin.get(`/api/admin/orders/${id}`), id).toMatchObject({ status: 404, body: { message: rule } })
          for (const action of ['capture', 'refund', 'cancel'])
            expect(await admin.post(`/api/admin/orders/${id}/${action}`, {}), `${id} ${action}`).toMatchObject({
              status: 404,
              body: { message: rule },
            })
        }
        // An id outside the checkout's rule may still be in the ledger (findOrder's own ids): it is looked up.
        expect(await admin.get('/api/admin/orders/INV.2024.0001')).toMatchObject({ status: 404, body: { error: 'ORDER_NOT_FOUND' } })
        // The shop's own calls: misuse, a TypeError naming the rule, never a store error.
        for (const call of [admin.shop.backend.capture, admin.shop.backend.chargeSavedCard, admin.shop.backend.eraseShopperData] as const)
          await expect((call as (id: string) => Promise<unknown>)('a\u0000b')).rejects.toThrow(
            new TypeError('orderId: 1 to 256 characters, no control character'),
          )
      }),
    )

    it(
      'captures part, then the rest, refunds and cancels through HTTP; the same requestId again is answered from the ledger',
      withAdmin(async (admin) => {
        const order = admin.shop.createOrder(2800)
        const psp = await admin.paid(order)
        const part = await admin.post(`/api/admin/orders/${order.id}/capture`, { amount: EUR(1000), requestId: 'click-part-0001' })
        expect(part).toMatchObject({
          status: 200,
          body: { requestId: 'click-part-0001', kind: 'capture', state: 'received', amount: EUR(1000) },
        })
        const captures = world.proxy.counted('POST', '/captures')
        // The page's retry (or a double click) with its requestId: the stored answer, nothing sent.
        expect(
          (await admin.post(`/api/admin/orders/${order.id}/capture`, { amount: EUR(1000), requestId: 'click-part-0001' })).body,
        ).toEqual(part.body)
        expect(world.proxy.counted('POST', '/captures')).toBe(captures)
        expect(world.sandboxModifications(psp, 'capture')).toBe(1)
        // A requestId of another action, or naming another amount (not the same click), is refused by name; nothing sent.
        expect(await admin.post(`/api/admin/orders/${order.id}/refund`, { requestId: 'click-part-0001' })).toMatchObject({
          status: 409,
          body: { error: 'REQUEST_ID_REUSED' },
        })
        expect(
          await admin.post(`/api/admin/orders/${order.id}/capture`, { amount: EUR(1500), requestId: 'click-part-0001' }),
        ).toMatchObject({
          status: 409,
          body: { error: 'REQUEST_ID_REUSED', message: 'requestId: already used for another amount or other lines' },
        })
        // The id alone (as /problems and a 503's details.requestId give it) is that request sent again.
        expect((await admin.post(`/api/admin/orders/${order.id}/capture`, { requestId: 'click-part-0001' })).body).toEqual(part.body)
        expect(world.proxy.counted('POST', '/captures')).toBe(captures)
        // The rest, without a requestId, twice (a double click): one capture.
        const rest = await admin.post(`/api/admin/orders/${order.id}/capture`, {})
        expect(rest.body).toMatchObject({ state: 'received', amount: EUR(1800) })
        expect((await admin.post(`/api/admin/orders/${order.id}/capture`, {})).body).toEqual(rest.body)
        expect(world.sandboxModifications(psp, 'capture')).toBe(2)
        await admin.shop.backend.poller.pollNow()
        const refund = await admin.post(`/api/admin/orders/${order.id}/refund`, { amount: EUR(500), requestId: 'click-refund-01' })
        expect(refund.body).toMatchObject({ kind: 'refund', state: 'received', amount: EUR(500) })
        expect(world.sandboxModifications(psp, 'refund')).toBe(1)
        // Bad input is the body's 400, naming the field; over what is left, the ledger's 422.
        expect(await admin.post(`/api/admin/orders/${order.id}/refund`, { amount: { value: 1 } })).toMatchObject({
          status: 400,
          body: { error: 'INVALID_BODY' },
        })
        // The rule in words, as the type's documentation gives it: not zod's "format:regex".
        expect(await admin.post(`/api/admin/orders/${order.id}/refund`, { requestId: 'click-1' })).toMatchObject({
          status: 400,
          body: { error: 'INVALID_BODY', message: 'body: requestId (8 to 64 characters of [A-Za-z0-9_-])' },
        })
        expect((await admin.post(`/api/admin/orders/${order.id}/refund`, { amount: { currency: 'eur', value: 1 } })).body).toMatchObject({
          message: 'body: amount.currency (an ISO 4217 code)',
        })
        expect(await admin.post(`/api/admin/orders/${order.id}/refund`, { amount: EUR(99_999) })).toMatchObject({
          status: 422,
          body: { error: 'AMOUNT_NOT_ALLOWED' },
        })
        // A captured payment cannot be cancelled; another order's authorised one can, once.
        expect(await admin.post(`/api/admin/orders/${order.id}/cancel`, {})).toMatchObject({
          status: 409,
          body: { error: 'MODIFICATION_NOT_ALLOWED' },
        })
        const other = admin.shop.createOrder(1500)
        const otherPsp = await admin.paid(other)
        const cancel = await admin.post(`/api/admin/orders/${other.id}/cancel`, { requestId: 'click-cancel-01' })
        expect(cancel.body).toMatchObject({ kind: 'cancel', state: 'received' })
        expect((await admin.post(`/api/admin/orders/${other.id}/cancel`, { requestId: 'click-cancel-01' })).body).toEqual(cancel.body)
        expect(world.sandboxModifications(otherPsp, 'cancel')).toBe(1)

        // The order's payments: attempts and modifications, and no key or card data in the answer.
        await admin.shop.backend.poller.pollNow()
        const view = await admin.get(`/api/admin/orders/${order.id}`)
        expect(view.status).toBe(200)
        expect(view.cacheControl).toBe('no-store')
        expect(view.body).toEqual({
          orderId: String(order.id),
          attempts: [
            {
              number: 1,
              state: 'partially_refunded',
              amount: EUR(2800),
              capturedValue: 2800,
              refundedValue: 500,
              pspReference: psp,
              resultCode: expect.any(String),
              methodType: 'scheme',
              createdAt: expect.any(String),
              updatedAt: expect.any(String),
            },
          ],
          modifications: [
            expect.objectContaining({ requestId: 'click-part-0001', attempt: 1, kind: 'capture', state: 'received', amount: EUR(1000) }),
            expect.objectContaining({ kind: 'capture', state: 'received', amount: EUR(1800) }),
            expect.objectContaining({ requestId: 'click-refund-01', kind: 'refund', state: 'received', amount: EUR(500) }),
          ],
        })
        const [attempt] = await admin.ledger.listAttempts(String(order.id))
        const keys = [attempt!.idempotencyKey, ...(await admin.ledger.listModifications(attempt!.id)).map((m) => m.idempotencyKey)]
        for (const key of keys) expect(view.text).not.toContain(key)
        // The order id (the clock in base 36) and the reference are random and asserted above: a "cvc" in one is chance.
        const ownValues = view.text.replaceAll(String(order.id), '<orderId>').replaceAll(psp, '<pspReference>')
        expect(ownValues).not.toMatch(/jwe|encrypted|cvc|expiry|4111/i)
        expect(await admin.get('/api/admin/orders/no-such-order')).toMatchObject({ status: 404, body: { error: 'ORDER_NOT_FOUND' } })
      }),
    )

    it(
      'refunds by line through HTTP: the lines in the body, checked by name; the order shows the lines sent and given back',
      withAdmin(async (admin) => {
        const lineItems = [
          { id: 'tea', description: 'Green tea', quantity: 2, amountIncludingTax: 700 },
          { id: 'mug', description: 'Mug', quantity: 1, amountIncludingTax: 1400 },
        ]
        const order = { ...admin.shop.createOrder(2800), lineItems }
        admin.shop.orders.set(String(order.id), order)
        const psp = await admin.paid(order)
        await admin.post(`/api/admin/orders/${order.id}/capture`, {})
        await admin.shop.backend.poller.pollNow()
        const path = `/api/admin/orders/${order.id}/refund`
        // The body's shape first (400, the field named), then the ledger's rules (the line, the amount).
        const shapes = [
          { lineItems: [] },
          { lineItems: [{ id: 'tea', quantity: 0 }] },
          { lineItems: [{ id: 'tea', quantity: 1, price: 1 }] },
        ]
        for (const body of shapes) expect(await admin.post(path, body)).toMatchObject({ status: 400, body: { error: 'INVALID_BODY' } })
        expect((await admin.post(path, { lineItems: [{ id: 'tea', quantity: 0 }] })).body.message).toContain('lineItems.0.quantity')
        expect(await admin.post(path, { lineItems: [{ id: 'cup', quantity: 1 }] })).toMatchObject({
          status: 400,
          body: { error: 'INVALID_INPUT', message: 'lineItems.0.id: not a line of the order as its payment sent it' },
        })
        expect(await admin.post(path, { amount: EUR(700), lineItems: [{ id: 'mug', quantity: 1 }] })).toMatchObject({
          status: 422,
          body: { error: 'AMOUNT_NOT_ALLOWED' },
        })
        expect(world.sandboxModifications(psp, 'refund')).toBe(0)
        const refund = await admin.post(path, { lineItems: [{ id: 'tea', quantity: 1 }], requestId: 'click-lines-01' })
        expect(refund.body).toMatchObject({ kind: 'refund', state: 'received', amount: EUR(700), lineItems: [{ id: 'tea', quantity: 1 }] })
        expect(world.sandboxModifications(psp, 'refund')).toBe(1)
        const view = (await admin.get(`/api/admin/orders/${order.id}`)).body
        expect(view.attempts[0].lineItems).toEqual(lineItems)
        expect(view.modifications.at(-1)).toMatchObject({ requestId: 'click-lines-01', lineItems: [{ id: 'tea', quantity: 1 }] })
      }),
    )

    it('a poll problem is shown with its tries and next try; retried through the route it is applied and the shop hears it', async () => {
      // The ledger's store fails its reads while the poller plans (a moment's outage): each record is kept as a problem.
      let outage = false
      const admin = await adminShop(variant.ledger, {}, (store) => ({
        ...store,
        async findAttemptByPspReference(pspReference) {
          if (outage) throw Object.assign(new Error('connection terminated'), { code: '57P01' })
          return store.findAttemptByPspReference(pspReference)
        },
      }))
      try {
        const order = admin.shop.createOrder(2800)
        const psp = await admin.paid(order)
        expect((await admin.post(`/api/admin/orders/${order.id}/capture`, {})).body).toMatchObject({ state: 'received' })
        outage = true
        await admin.shop.backend.poller.pollNow()
        outage = false
        const listed = await admin.get('/api/admin/problems')
        expect(listed.status).toBe(200)
        expect(listed.cacheControl).toBe('no-store')
        const ours = (listed.body.pollProblems as Array<{ sequence: number; record: { pspReference: string; status: string } }>).filter(
          (p) => p.record.pspReference === psp,
        )
        expect(ours.map((p) => p.record.status)).toEqual(['authorised', 'captured'])
        const captured = ours.find((p) => p.record.status === 'captured')!
        expect(captured).toEqual({
          sequence: expect.any(Number),
          reason: 'STORE_ERROR',
          tries: 1,
          nextTryAt: expect.any(String),
          record: {
            pspReference: psp,
            status: 'captured',
            amount: EUR(2800),
            capturedAmount: EUR(2800),
            refundedAmount: EUR(0),
            orderId: String(order.id),
          },
        })
        expect((await admin.ledger.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'authorised', capturedValue: 0 })
        // Tried now: applied, and the shop heard the change before the answer.
        expect(await admin.post(`/api/admin/problems/${captured.sequence}/retry`, {})).toEqual({
          status: 200,
          body: { sequence: captured.sequence, outcome: 'applied' },
          text: expect.any(String),
        })
        expect((await admin.ledger.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'captured', capturedValue: 2800 })
        expect(admin.shop.changes.filter((c) => c.orderId === String(order.id)).map((c) => c.state)).toEqual(['authorised', 'captured'])
        // The older record has nothing left to write: resolved all the same. Neither is open any more.
        const older = ours.find((p) => p.record.status === 'authorised')!
        expect((await admin.post(`/api/admin/problems/${older.sequence}/retry`, {})).body).toEqual({
          sequence: older.sequence,
          outcome: 'nothing-to-apply',
        })
        const after = (await admin.get('/api/admin/problems')).body.pollProblems as Array<{ record: { pspReference: string } }>
        expect(after.filter((p) => p.record.pspReference === psp)).toEqual([])
        expect(await admin.post(`/api/admin/problems/${captured.sequence}/retry`, {})).toMatchObject({ status: 404 })
      } finally {
        await admin.close()
      }
    })

    it(
      'a record of an order the shop does not know stays a problem when retried; dismissed, it is kept for the record and no longer open',
      withAdmin(async (admin) => {
        // Another system of the shop's takes a payment at the service under the same shop: this back end knows nothing of it.
        const elsewhere = await startShop(world)
        let psp: string
        try {
          const foreign = elsewhere.createOrder(1200)
          expect((await elsewhere.post('/api/payments', await elsewhere.cardSubmission(foreign))).body).toEqual({
            resultCode: 'Authorised',
          })
          psp = (await elsewhere.store.listAttempts(String(foreign.id)))[0]!.pspReference!
        } finally {
          await elsewhere.close()
        }
        await admin.shop.backend.poller.pollNow()
        const find = async (key: 'pollProblems', from: Json) =>
          (from[key] as Array<{ sequence: number; tries: number; reason: string; record: { pspReference: string } }>).find(
            (p) => p.record.pspReference === psp,
          )
        const open = (await find('pollProblems', (await admin.get('/api/admin/problems')).body))!
        expect(open).toMatchObject({ reason: 'UNKNOWN_ORDER', tries: 1 })
        expect((await admin.post(`/api/admin/problems/${open.sequence}/retry`, {})).body).toEqual({
          sequence: open.sequence,
          outcome: 'not-applied',
          reason: 'UNKNOWN_ORDER',
        })
        expect(await find('pollProblems', (await admin.get('/api/admin/problems')).body)).toMatchObject({ tries: 2 })
        const dismissed = await admin.post(`/api/admin/problems/${open.sequence}/dismiss`, {})
        expect(dismissed).toMatchObject({ status: 200, body: { sequence: open.sequence, dismissedAt: expect.any(String) } })
        const listed = (await admin.get('/api/admin/problems')).body
        expect(await find('pollProblems', listed)).toBeUndefined()
        expect(await find('pollProblems', listed.dismissed)).toMatchObject({ sequence: open.sequence, reason: 'UNKNOWN_ORDER', tries: 2 })
        expect(await admin.post(`/api/admin/problems/${open.sequence}/dismiss`, {})).toMatchObject({ status: 404 })
        expect(await admin.post(`/api/admin/problems/${open.sequence}/retry`, {})).toMatchObject({ status: 404 })
        // A later poll does not bring it back.
        await admin.shop.backend.poller.pollNow()
        expect(await find('pollProblems', (await admin.get('/api/admin/problems')).body)).toBeUndefined()
      }),
    )

    it('a refused delivery waits with its tries; a retry delivers it once the shop is back; a dismissed one is kept', async () => {
      let shopDown = true
      const down = new Set<string>()
      const heard: OrderChange[] = []
      const admin = await adminShop(variant.ledger, {
        onOrderChange(change) {
          // The shop's own orders table, locked for a while.
          if (shopDown && down.has(change.orderId)) throw new Error('orders table locked')
          heard.push(change)
        },
      })
      try {
        const order = admin.shop.createOrder(2800)
        down.add(String(order.id))
        await admin.paid(order)
        type Delivery = { id: number; tries: number; nextTryAt: string; change: { orderId: string; state: string } }
        const waiting = async (orderId: string | number, from?: Json) =>
          ((from ?? (await admin.get('/api/admin/problems')).body).deliveries as Delivery[]).filter(
            (d) => d.change.orderId === String(orderId),
          )
        const [delivery] = await waiting(order.id)
        expect(delivery).toMatchObject({
          tries: 1,
          nextTryAt: expect.any(String),
          change: { state: 'authorised', previousState: 'created' },
        })
        // Still down: tried, not delivered, waits longer.
        expect((await admin.post(`/api/admin/deliveries/${delivery!.id}/retry`, {})).body).toMatchObject({
          id: delivery!.id,
          delivered: false,
          tries: 2,
        })
        shopDown = false
        expect((await admin.post(`/api/admin/deliveries/${delivery!.id}/retry`, {})).body).toEqual({ id: delivery!.id, delivered: true })
        expect(heard.filter((c) => c.orderId === String(order.id)).map((c) => c.state)).toEqual(['authorised'])
        expect(await waiting(order.id)).toEqual([])
        expect(await admin.post(`/api/admin/deliveries/${delivery!.id}/retry`, {})).toMatchObject({ status: 404 })

        // Another order's change, dismissed: never delivered, kept for the record; its order's next change is not held back.
        shopDown = true
        const other = admin.shop.createOrder(1900)
        down.add(String(other.id))
        await admin.paid(other)
        const [stuck] = await waiting(other.id)
        expect(await admin.post(`/api/admin/deliveries/${stuck!.id}/dismiss`, {})).toMatchObject({
          status: 200,
          body: { id: stuck!.id, dismissedAt: expect.any(String) },
        })
        const listed = (await admin.get('/api/admin/problems')).body
        expect(await waiting(other.id, listed)).toEqual([])
        expect(await waiting(other.id, listed.dismissed)).toMatchObject([{ id: stuck!.id, tries: 1, change: { state: 'authorised' } }])
        shopDown = false
        await admin.post(`/api/admin/orders/${other.id}/capture`, {})
        await admin.shop.backend.poller.pollNow()
        expect(heard.filter((c) => c.orderId === String(other.id)).map((c) => c.state)).toEqual(['captured'])
      } finally {
        await admin.close()
      }
    })
  })
}

/** GET (no body) or POST JSON to the framework's server, signed in unless told otherwise. */
function caller(url: string) {
  return async (path: string, body?: unknown, signedIn = true) => {
    const response = await fetch(`${url}${path}`, {
      ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
      headers: { 'content-type': 'application/json', ...(signedIn ? { authorization: SIGNED_IN } : {}) },
    })
    return { status: response.status, body: (await response.json()) as Json }
  }
}

/** A new order of 28.00 paid by card through the shop's checkout; its pspReference. */
async function paidThroughShop(shop: TestShop) {
  const order = shop.createOrder(2800)
  expect((await shop.post('/api/payments', await shop.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
  return { order, psp: (await shop.store.listAttempts(String(order.id)))[0]!.pspReference! }
}

describe('admin routes through Fastify 5', () => {
  it('routes them by backend.paths: refused without the sign-in, a capture repeated with its requestId sent once', async () => {
    const shop = await startShop(world, {
      admin: { authorize: (request) => request.headers.get('authorization') === SIGNED_IN },
    })
    const app = Fastify()
    await app.register(shopBackendPlugin, { backend: shop.backend })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const call = caller(url)
    try {
      const { order, psp } = await paidThroughShop(shop)
      expect(await call(`/api/admin/orders/${order.id}/cancel`, { requestId: 'click-fastify-1' }, false)).toMatchObject({ status: 403 })
      const first = await call(`/api/admin/orders/${order.id}/cancel`, { requestId: 'click-fastify-1' })
      expect(first).toMatchObject({ status: 200, body: { requestId: 'click-fastify-1', kind: 'cancel', state: 'received' } })
      expect(await call(`/api/admin/orders/${order.id}/cancel`, { requestId: 'click-fastify-1' })).toEqual(first)
      expect(world.sandboxModifications(psp, 'cancel')).toBe(1)
      expect((await call(`/api/admin/orders/${order.id}`)).body).toMatchObject({ modifications: [{ requestId: 'click-fastify-1' }] })
    } finally {
      await app.close()
      await shop.close()
    }
  })
})

describe('admin routes through Express 5', () => {
  it("answers beside the app's own admin routes: signed in or not, an order, a capture repeated with its requestId", async () => {
    const shop = await startShop(world, {
      admin: { authorize: (request) => request.headers.get('authorization') === SIGNED_IN },
    })
    const app = express()
    app.use(express.json())
    app.use(shopBackendHandler(shop.backend))
    app.get('/api/admin/orders', (_req, res) => {
      res.json({ own: "the shop's order list" })
    })
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s))
    })
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const call = caller(url)
    try {
      const { order, psp } = await paidThroughShop(shop)
      expect(await call('/api/admin/orders')).toEqual({ status: 200, body: { own: "the shop's order list" } })
      expect(await call(`/api/admin/orders/${order.id}`, undefined, false)).toMatchObject({ status: 403, body: { error: 'FORBIDDEN' } })
      expect(await call(`/api/admin/orders/${order.id}/capture`, { requestId: 'click-express-1' }, false)).toMatchObject({ status: 403 })
      expect(world.sandboxModifications(psp, 'capture')).toBe(0)
      const first = await call(`/api/admin/orders/${order.id}/capture`, { requestId: 'click-express-1' })
      expect(first).toMatchObject({ status: 200, body: { requestId: 'click-express-1', state: 'received', amount: EUR(2800) } })
      expect(await call(`/api/admin/orders/${order.id}/capture`, { requestId: 'click-express-1' })).toEqual(first)
      expect(world.sandboxModifications(psp, 'capture')).toBe(1)
      expect((await call(`/api/admin/orders/${order.id}`)).body).toMatchObject({
        attempts: [{ number: 1, state: 'authorised', pspReference: psp }],
        modifications: [{ requestId: 'click-express-1', kind: 'capture', state: 'received' }],
      })
      expect(await call('/api/admin/problems')).toMatchObject({ status: 200, body: { pollProblems: expect.any(Array), deliveries: [] } })
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      await shop.close()
    }
  })
})

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { connectServiceClient, createShopBackend, generateSecretKey, type ShopOrder } from '../src/index.js'
import { openSqliteStore } from '../src/sqlite/index.js'
import { startShop, startWorld, type TestShop, type World } from './support/shop.js'

// One clock for the sandbox and the shop (whose signatures must be near the sandbox's time); each
// test starts at the real time, as the page's card JWE is made on it.
let clock = new Date()
const now = () => clock
let world: World
beforeAll(async () => {
  world = await startWorld({ now })
})
afterAll(() => world.close())
beforeEach(() => {
  clock = new Date()
})

const HOUR = 3_600_000
const lines = [
  { id: 'mug', description: 'Mug', quantity: 2, amountIncludingTax: 1210, amountExcludingTax: 1000, taxAmount: 210, taxPercentage: 2100 },
  { id: 'tea', description: 'Tea', quantity: 1, amountIncludingTax: 380, amountExcludingTax: 349, taxAmount: 31, taxPercentage: 900 },
]
const billingAddress = { street: 'Dam', houseNumberOrName: '1', postalCode: '1012 JS', city: 'Amsterdam', country: 'NL' }

/** A test shop on the shared clock, its service calls signed on it too. */
const shopOnClock = (captureDelayHours?: number): Promise<TestShop> =>
  startShop(world, {
    now,
    service: connectServiceClient({
      baseUrl: world.proxy.baseUrl,
      fetch: world.proxy.fetch,
      now,
      deadlineMs: 2_000,
      attemptTimeoutMs: 1_000,
    }).service,
    ...(captureDelayHours === undefined ? {} : { captureDelayHours }),
  })

async function paidByCard(shop: TestShop, extra: Partial<ShopOrder> = {}): Promise<ShopOrder> {
  const order = { ...shop.createOrder(2800), ...extra }
  shop.orders.set(String(order.id), order)
  expect((await shop.post('/api/payments', await shop.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
  return order
}
const heard = (shop: TestShop, order: ShopOrder) => shop.changes.filter((c) => c.orderId === String(order.id)).map((c) => c.state)

describe('when the money is taken: the shop default and the order override', () => {
  it('the shop default 0 takes it at authorisation: onOrderChange hears captured from the feed, with no capture call', async () => {
    const shop = await shopOnClock(0)
    try {
      const order = await paidByCard(shop)
      await shop.backend.poller.pollNow()
      expect(heard(shop, order)).toEqual(['authorised', 'captured'])
      const [attempt] = await shop.store.listAttempts(String(order.id))
      expect(attempt).toMatchObject({ state: 'captured', capturedValue: 2800 })
      expect(world.sandboxModifications(attempt!.pspReference!, 'capture')).toBe(0)
    } finally {
      await shop.close()
    }
  })

  it("an order's captureDelayHours wins: captured once the sandbox's clock passes the delay", async () => {
    const shop = await shopOnClock(0)
    try {
      const order = await paidByCard(shop, { captureDelayHours: 24 })
      await shop.backend.poller.pollNow()
      expect(heard(shop, order)).toEqual(['authorised'])
      clock = new Date(clock.getTime() + 23 * HOUR)
      await shop.backend.poller.pollNow()
      expect(heard(shop, order)).toEqual(['authorised'])
      clock = new Date(clock.getTime() + 2 * HOUR)
      await shop.backend.poller.pollNow()
      expect(heard(shop, order)).toEqual(['authorised', 'captured'])
    } finally {
      await shop.close()
    }
  })

  it('without a default or an override the capture stays the shop’s to make', async () => {
    const shop = await shopOnClock()
    try {
      const order = await paidByCard(shop)
      clock = new Date(clock.getTime() + 1000 * HOUR)
      await shop.backend.poller.pollNow()
      expect(heard(shop, order)).toEqual(['authorised'])
    } finally {
      await shop.close()
    }
  })

  it.each([-1, 1.5, 721])('refuses a shop default of %s hours, naming captureDelayHours', (hours) => {
    const options = {
      store: openSqliteStore({ path: ':memory:' }),
      ...connectServiceClient({ baseUrl: world.sandbox.baseUrl }),
      secretKey: generateSecretKey(),
      findOrder: () => undefined,
      onOrderChange: () => {},
      shopUrl: 'http://127.0.0.1:9',
      captureDelayHours: hours,
    }
    expect(() => createShopBackend(options)).toThrow(/^captureDelayHours: a whole number of hours from 0 to 720$/)
  })
})

describe("the order's shopper, billing address and lines, from findOrder", () => {
  it('pays with klarna: the lines reach the service from the order record, not the page', async () => {
    const shop = await shopOnClock()
    try {
      const order = { ...shop.createOrder(2800), shopperEmail: 'shopper@example.com', billingAddress, lineItems: lines }
      shop.orders.set(String(order.id), order)
      const submission = { orderId: order.id, reference: order.reference, amount: order.amount, paymentMethod: { type: 'klarna' } }
      const started = await shop.post('/api/payments', submission)
      expect(started.body).toMatchObject({ resultCode: 'RedirectShopper', action: { type: 'redirect', paymentMethodType: 'klarna' } })
      const [attempt] = await shop.store.listAttempts(String(order.id))
      const [kept] = world.sandboxRows<{ line_items: string }>(
        'SELECT line_items FROM payment_orders WHERE psp_reference = ?',
        attempt!.pspReference,
      )
      expect(JSON.parse(kept!.line_items)).toEqual(
        lines.map((l) => ({ id: l.id, quantity: l.quantity, amountIncludingTax: l.amountIncludingTax, refunded: 0 })),
      )
    } finally {
      await shop.close()
    }
  })

  it('refuses klarna for an order without lines, before any money moves', async () => {
    const shop = await shopOnClock()
    try {
      const order = shop.createOrder(2800)
      const submission = { orderId: order.id, reference: order.reference, amount: order.amount, paymentMethod: { type: 'klarna' } }
      const answer = await shop.post('/api/payments', submission)
      expect(answer.status).toBe(422)
      expect(answer.body).toMatchObject({ error: 'ORDER_INCOMPLETE', message: expect.stringContaining('lineItems (at least one line') })
      expect(world.sandboxPaymentsFor(order.reference, 'RedirectShopper')).toBe(0)
    } finally {
      await shop.close()
    }
  })
})

import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { ShopBackendError } from '../src/index.js'
import { approveAtBank } from './support/bank-page.js'
import { startShop, startWorld, type TestShop, type World } from './support/shop.js'

// A ledger's idempotency keys and feed position are its shop's: the service knows a key only for
// the shop that sent it, so another shop's credentials would send an open payment again as new.

let world: World
const shops: TestShop[] = []
beforeAll(async () => {
  world = await startWorld()
})
afterEach(async () => {
  world.proxy.mode = 'pass'
  world.proxy.matches = () => true
  while (shops.length > 0) await shops.pop()!.close()
})
afterAll(() => world.close())

async function shop(options: Parameters<typeof startShop>[1] = {}) {
  const started = await startShop(world, options)
  shops.push(started)
  return started
}

const isPaymentCall = (method: string, path: string) => method === 'POST' && path.endsWith('/payments')
const isCaptureCall = (method: string, path: string) => method === 'POST' && path.endsWith('/captures')
/** Another shop at the same service, with its own secret and store. */
const anotherShop = () => world.sandbox.sandbox.createReadyMadeShop()
/** A shop whose card payment was authorised and whose feed was read since (its cursor moved on). */
async function shopWithFeedRead() {
  const s = await shop()
  const order = s.createOrder()
  expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toMatchObject({ resultCode: 'Authorised' })
  await s.backend.poller.pollNow()
  expect(await s.store.readCursor()).toBeGreaterThan(0)
  return s
}
/** `connect()`'s refusal, or undefined when it connected. */
const connectRefusal = (s: TestShop, to: ReturnType<typeof anotherShop>) =>
  s.backend.connect({ shopId: to.shopId, serviceSecret: to.serviceSecret, storeId: to.storeId }).then(
    () => undefined,
    (error: unknown) => error,
  )

it("keeps a ledger with an open payment on its shop: the next Pay goes under the payment's key to that shop, charged once", async () => {
  const s = await shop()
  const order = s.createOrder()
  world.proxy.matches = isPaymentCall
  world.proxy.mode = 'lose-answers'
  expect((await s.post('/api/payments', await s.cardSubmission(order))).status).toBe(503)
  world.proxy.mode = 'pass'
  const other = anotherShop()

  const refusal = await connectRefusal(s, other)
  expect(await s.post('/api/payments', await s.cardSubmission(order))).toMatchObject({ status: 200, body: { resultCode: 'Authorised' } })
  expect(world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
  expect(world.sandboxPayments(other.shopId)).toBe(0)
  expect(refusal).toBeInstanceOf(ShopBackendError)
  expect(refusal).toMatchObject({
    code: 'LEDGER_OF_ANOTHER_SHOP',
    details: { shopId: s.shopId, holdsPayments: true, openPayments: 1, openRequests: 0, feedRead: false },
  })
  expect((refusal as Error).message).toMatch(new RegExp(`^shopId: .*To go on with shop ${s.shopId}, leave connect\\(\\) out`))
  expect(await s.store.getSetting('shop_id')).toBe(s.shopId)
})

it('keeps a ledger with an open capture on its shop: the capture asked again reaches that shop once', async () => {
  const s = await shop()
  const order = s.createOrder()
  expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toMatchObject({ resultCode: 'Authorised' })
  const [paid] = await s.store.listAttempts(String(order.id))
  world.proxy.matches = isCaptureCall
  world.proxy.mode = 'lose-answers'
  await expect(s.backend.capture(order.id)).rejects.toBeInstanceOf(ShopBackendError)
  world.proxy.mode = 'pass'

  const refusal = await connectRefusal(s, anotherShop())
  await s.backend.capture(order.id)
  expect(world.sandboxModifications(paid!.pspReference!, 'capture')).toBe(1)
  expect(refusal).toMatchObject({ code: 'LEDGER_OF_ANOTHER_SHOP', details: { openPayments: 0, openRequests: 1 } })
})

it("keeps a ledger with a payment at the bank's step on its shop: the shopper's return is answered by that shop, paid once", async () => {
  const s = await shop()
  const order = s.createOrder()
  const started = await s.post('/api/payments', s.idealSubmission(order))
  expect(started.body).toMatchObject({ resultCode: 'RedirectShopper' })
  const redirectResult = await approveAtBank((started.body.action as { url: string }).url)

  const refusal = await connectRefusal(s, anotherShop())
  const returned = await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })
  expect(returned).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
  expect(world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
  expect(refusal).toMatchObject({
    code: 'LEDGER_OF_ANOTHER_SHOP',
    details: { holdsPayments: true, openPayments: 0, openRequests: 0, feedRead: false },
  })
})

it("refuses another shop once the ledger has read its shop's feed: the position is that shop's", async () => {
  const s = await shopWithFeedRead()

  expect(await connectRefusal(s, anotherShop())).toMatchObject({
    code: 'LEDGER_OF_ANOTHER_SHOP',
    details: { shopId: s.shopId, openPayments: 0, openRequests: 0, feedRead: true },
  })
  // Still the first shop's: its poll goes on from where it was.
  const report = await s.backend.poller.pollNow()
  expect(report.failed).toBeUndefined()
  expect(report.problems).toEqual([])
})

it('takes its own shop again on a used ledger, and another shop on a ledger nothing was paid with', async () => {
  const s = await shopWithFeedRead()
  const same = world.sandbox.readyMadeShop
  await s.backend.connect({ shopId: same.shopId, serviceSecret: same.serviceSecret, storeId: same.storeId })

  const fresh = await shop()
  const other = anotherShop()
  expect(await connectRefusal(fresh, other)).toBeUndefined()
  const next = fresh.createOrder()
  expect((await fresh.post('/api/payments', await fresh.cardSubmission(next))).body).toMatchObject({ resultCode: 'Authorised' })
  expect(world.sandboxPayments(other.shopId)).toBe(1)
})

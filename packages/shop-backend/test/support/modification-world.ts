/**
 * The world of the capture, refund and cancel tests: one sandbox behind the proxy for the file, the
 * proxy forwarding everything again after each test, and the helpers those tests share.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import { startWorld, type TestShop, type World } from './shop.js'

export function modificationWorld() {
  let world: World | undefined
  let forwardEverything: World['proxy']['rule']
  beforeAll(async () => {
    world = await startWorld()
    forwardEverything = world.proxy.rule
  })
  afterAll(() => world?.close())
  afterEach(() => {
    world!.proxy.mode = 'pass'
    world!.proxy.matches = () => true
    world!.proxy.rule = forwardEverything
  })
  /** A new order of `value` (default 28.00) paid by card, with its payment's pspReference. */
  async function paidOrder(shop: TestShop, value = 2800) {
    const order = shop.createOrder(value)
    expect((await shop.post('/api/payments', await shop.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
    return { order, payment: (await shop.ledger.listAttempts(String(order.id)))[0]!.pspReference! }
  }
  return {
    /** The file's world, started before its first test. */
    get world(): World {
      return world!
    },
    /** The service as seen through the proxy for POSTs to `pathEnd` until the test ends: answers lost, or down. */
    failing(mode: 'lose-answers' | 'down', pathEnd: string): void {
      world!.proxy.matches = (method, path) => method === 'POST' && path.endsWith(pathEnd)
      world!.proxy.mode = mode
    },
    paidOrder,
    /** A new order of 28.00, paid by card and captured whole, the capture shown by the feed. */
    async capturedOrder(shop: TestShop) {
      const paid = await paidOrder(shop)
      await shop.backend.capture(paid.order.id)
      await shop.backend.poller.pollNow()
      return paid
    },
    /** The order's refunds as the ledger the shop writes holds them, oldest first. */
    async refundsOf(shop: TestShop, orderId: string | number) {
      const [attempt] = await shop.ledger.listAttempts(String(orderId))
      return (await shop.ledger.listModifications(attempt!.id)).filter((m) => m.kind === 'refund')
    },
  }
}

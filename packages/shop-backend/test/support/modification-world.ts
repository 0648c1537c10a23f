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
    /** A new order of 28.00, paid by card and captured whole, the capture shown by the feed. */
    async capturedOrder(shop: TestShop) {
      const order = shop.createOrder(2800)
      expect((await shop.post('/api/payments', await shop.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
      await shop.backend.capture(order.id)
      await shop.backend.poller.pollNow()
      return { order, payment: (await shop.store.listAttempts(String(order.id)))[0]!.pspReference! }
    },
  }
}

/**
 * The world of the saved-card tests: one sandbox behind the proxy for the file, and its shoppers,
 * their orders in the shop's records and their cards saved the way a page saves them.
 */
import { findTestCard, type TestCard } from '@card-jwe/testkit/test-cards'
import { afterAll, beforeAll, expect } from 'vitest'
import type { ShopOrder } from '../../src/index.js'
import { startWorld, type TestShop, type World } from './shop.js'

export const VISA = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })

export function savedCardWorld() {
  let world: World | undefined
  beforeAll(async () => {
    world = await startWorld()
  })
  afterAll(() => world?.close())
  let shoppers = 0

  /** An order of `shopperReference` in the shop's own records (what `findOrder` gives). */
  function orderOf(shop: TestShop, shopperReference: string | undefined, value = 1500): ShopOrder {
    const order = { ...shop.createOrder(value), ...(shopperReference ? { shopperReference } : {}) }
    shop.orders.set(String(order.id), order)
    return order
  }

  /** Saves `card` for the shopper the way a page does (a paid order with storePaymentMethod); its saved id. */
  async function saveCard(shop: TestShop, shopperReference: string, card: TestCard = VISA): Promise<string> {
    const order = orderOf(shop, shopperReference)
    const paid = await shop.post('/api/payments', { ...(await shop.cardSubmission(order, card)), storePaymentMethod: true })
    expect(paid.body).toEqual({ resultCode: 'Authorised' })
    const cards = await shop.backend.savedCards(shopperReference)
    const saved = cards.find((c) => c.lastFour === card.number.slice(-4))
    if (!saved) throw new Error('the card was not saved')
    return saved.id
  }

  const newShopper = () => `shopper-${Date.now().toString(36)}-${++shoppers}`

  return {
    /** The file's world, started before its first test. */
    get world(): World {
      return world!
    },
    newShopper,
    orderOf,
    saveCard,
    /** A new shopper with a saved card (its id), and a new order of theirs to pay with it. */
    async shopperWithCard(shop: TestShop) {
      const shopper = newShopper()
      const id = await saveCard(shop, shopper)
      return { shopper, id, order: orderOf(shop, shopper) }
    },
    paymentsAtSandbox: () => world!.proxy.counted('POST', '/payments'),
  }
}

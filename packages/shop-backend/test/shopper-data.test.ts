import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient } from '@card-jwe/service-client'
import { startShop, startWorld, type World } from './support/shop.js'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())

/** The shop's saved cards as the service lists them, read straight from the sandbox. */
async function savedCards(shopperReference: string): Promise<string[]> {
  const { shopId, serviceSecret, storeId } = world.sandbox.readyMadeShop
  const client = createServiceClient({ baseUrl: world.sandbox.baseUrl, credentials: { shopId, serviceSecret } })
  const methods = await client.checkoutPaymentMethods(storeId, { shopper: shopperReference })
  return ((methods.storedPaymentMethods ?? []) as Array<{ id: string }>).map((m) => m.id)
}

describe("a shopper's saved card and data", () => {
  it("a card saved with a payment (the order's shopperReference, the page's storePaymentMethod) goes with removeSavedCard", async () => {
    const shop = await startShop(world)
    try {
      const shopperReference = `shopper-${Date.now()}`
      const order = { ...shop.createOrder(), shopperReference }
      shop.orders.set(String(order.id), order)
      const paid = await shop.post('/api/payments', { ...(await shop.cardSubmission(order)), storePaymentMethod: true })
      expect(paid.body).toEqual({ resultCode: 'Authorised' })
      const [card, ...others] = await savedCards(shopperReference)
      expect(card).toBeDefined()
      expect(others).toEqual([])
      // The back end lists them too, with what a shopper tells cards apart by.
      expect(await shop.backend.savedCards(shopperReference)).toEqual([
        expect.objectContaining({ id: card, brand: 'visa', lastFour: expect.stringMatching(/^\d{4}$/) }),
      ])
      expect(await shop.backend.removeSavedCard({ shopperReference, storedPaymentMethodId: card! })).toMatchObject({ status: 'disabled' })
      expect(await savedCards(shopperReference)).toEqual([])
      expect(await shop.backend.savedCards(shopperReference)).toEqual([])
    } finally {
      await shop.close()
    }
  })

  it("removeSavedCard refuses a malformed reference by the field's name, without repeating it", async () => {
    const shop = await startShop(world)
    try {
      const card = '4111111145551142'
      const refused = shop.backend.removeSavedCard({ shopperReference: `has space ${card}`, storedPaymentMethodId: 'x1' })
      await expect(refused).rejects.toThrow(TypeError)
      await expect(refused).rejects.toThrow(/^shopperReference: /)
      await expect(refused).rejects.not.toThrow(card)
      // Too short for the service (3 to 256): refused here, not sent.
      await expect(shop.backend.removeSavedCard({ shopperReference: 'x', storedPaymentMethodId: 'x1' })).rejects.toThrow(
        /^shopperReference: /,
      )
    } finally {
      await shop.close()
    }
  })

  it('eraseShopperData asks the service once for each payment of the order; an order the ledger has no payment for is 404', async () => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder()
      await shop.post('/api/payments', await shop.cardSubmission(order))
      const [attempt] = await shop.store.listAttempts(String(order.id))
      const asked = world.proxy.counted('POST', '/subject-erasure-requests')
      expect(await shop.backend.eraseShopperData(order.id)).toEqual({
        orderId: String(order.id),
        payments: [{ pspReference: attempt!.pspReference, status: 'received' }],
      })
      expect(world.proxy.counted('POST', '/subject-erasure-requests') - asked).toBe(1)
      await expect(shop.backend.eraseShopperData('no-such-order')).rejects.toMatchObject({ code: 'ORDER_NOT_FOUND', status: 404 })
    } finally {
      await shop.close()
    }
  })
})

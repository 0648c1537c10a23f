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

/** Every payment the sandbox holds for an order reference, and how many erasures were asked for it. */
const erasuresAtService = (reference: string) =>
  world.sandboxRows<{ psp: string; erased: number }>(
    `SELECT p.psp_reference AS psp, (SELECT COUNT(*) FROM erasures e WHERE e.psp_reference = p.psp_reference) AS erased
       FROM payments p WHERE p.reference = ?`,
    reference,
  )

const paymentPost = (method: string, path: string) => method === 'POST' && path.endsWith('/payments')

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

  it("removeSavedCard refuses a malformed reference or card id by the field's name, without repeating it", async () => {
    const shop = await startShop(world)
    try {
      const card = '4111111145551142'
      const refused = shop.backend.removeSavedCard({ shopperReference: `line\nbreak ${card}`, storedPaymentMethodId: 'x1' })
      await expect(refused).rejects.toThrow(TypeError)
      await expect(refused).rejects.toThrow(/^shopperReference: /)
      await expect(refused).rejects.not.toThrow(card)
      // Too short for the service (3 to 256): refused here, not sent.
      await expect(shop.backend.removeSavedCard({ shopperReference: 'x', storedPaymentMethodId: 'x1' })).rejects.toThrow(
        /^shopperReference: /,
      )
      // Longer than the service client sends (64): refused by this field's name, before the client's own schema.
      const longId = 'A'.repeat(65)
      const tooLong = shop.backend.removeSavedCard({ shopperReference: 'shopper-1', storedPaymentMethodId: longId })
      await expect(tooLong).rejects.toThrow(/^storedPaymentMethodId: 1 to 64 /)
      await expect(tooLong).rejects.not.toThrow(longId)
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
        unsettled: [],
      })
      expect(world.proxy.counted('POST', '/subject-erasure-requests') - asked).toBe(1)
      await expect(shop.backend.eraseShopperData('no-such-order')).rejects.toMatchObject({ code: 'ORDER_NOT_FOUND' })
    } finally {
      await shop.close()
    }
  })

  it('eraseShopperData covers a payment whose answer was lost: the feed gives the ledger its reference first', async () => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder()
      const lost = await world.whileProxy('lose', paymentPost, async () => shop.post('/api/payments', await shop.cardSubmission(order)))
      expect(lost.status).toBe(503)
      const [payment] = erasuresAtService(order.reference)
      expect(payment).toEqual({ psp: expect.any(String), erased: 0 })

      expect(await shop.backend.eraseShopperData(order.id)).toEqual({
        orderId: String(order.id),
        payments: [{ pspReference: payment!.psp, status: 'received' }],
        unsettled: [],
      })
      expect(erasuresAtService(order.reference)).toEqual([{ psp: payment!.psp, erased: 1 }])
    } finally {
      await shop.close()
    }
  })

  it('eraseShopperData names an attempt whose outcome is still unknown, rather than report it covered', async () => {
    const shop = await startShop(world)
    try {
      // The service never saw the payment: no reference, and nothing in the feed to give one.
      const order = shop.createOrder()
      const unsent = await world.whileProxy('down', paymentPost, async () => shop.post('/api/payments', await shop.cardSubmission(order)))
      expect(unsent.status).toBe(503)
      expect(await shop.backend.eraseShopperData(order.id)).toEqual({ orderId: String(order.id), payments: [], unsettled: [1] })
    } finally {
      await shop.close()
    }
  })

  it('eraseShopperData works while the checkout is closed: erasure needs the signed service, not a selling store', async () => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder()
      expect((await shop.post('/api/payments', await shop.cardSubmission(order))).body.resultCode).toBe('Authorised')
      const [attempt] = await shop.store.listAttempts(String(order.id))
      await shop.backend.useStore('')
      expect(await shop.backend.eraseShopperData(order.id)).toEqual({
        orderId: String(order.id),
        payments: [{ pspReference: attempt!.pspReference, status: 'received' }],
        unsettled: [],
      })
    } finally {
      await shop.close()
    }
  })

  it('removeSavedCard after a lost answer says the card is removed, on the client retry and on the shop calling again', async () => {
    const shop = await startShop(world)
    try {
      const shopperReference = `shopper-${Date.now()}-lost`
      const order = { ...shop.createOrder(), shopperReference }
      shop.orders.set(String(order.id), order)
      const paid = await shop.post('/api/payments', { ...(await shop.cardSubmission(order)), storePaymentMethod: true })
      expect(paid.body).toEqual({ resultCode: 'Authorised' })
      const [card] = await savedCards(shopperReference)
      const removal = { shopperReference, storedPaymentMethodId: card! }
      const unsubscribe = (method: string, path: string) => method === 'POST' && path.endsWith('/unsubscribe-requests')

      // The first answer lost: the client's retry under the same key.
      let lost = 0
      const retried = await world.whileProxy(
        'lose',
        (m, p) => unsubscribe(m, p) && lost++ === 0,
        () => shop.backend.removeSavedCard(removal),
      )
      expect(retried).toMatchObject({ status: 'disabled' })
      expect(await savedCards(shopperReference)).toEqual([])
      // The shop asks again (its own retry after a 503): the same answer, not "no such card".
      expect(await shop.backend.removeSavedCard(removal)).toMatchObject({ status: 'disabled' })
    } finally {
      await shop.close()
    }
  })
})

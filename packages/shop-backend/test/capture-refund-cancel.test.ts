/** Capture, refund and cancel by order: what each may take, through the feed into the ledger. */
import { describe, expect, it } from 'vitest'
import { modificationWorld } from './support/modification-world.js'
import { startShop } from './support/shop.js'

const t = modificationWorld()

describe('capture, refund and cancel by order', () => {
  it('capture part, capture the rest, refund part: each through the feed into the ledger, and the shop hears each state', async () => {
    const shop = await startShop(t.world)
    try {
      const { order } = await t.paidOrder(shop)
      expect(await shop.backend.capture(order.id, { amount: { currency: 'EUR', value: 1000 } })).toMatchObject({
        kind: 'capture',
        state: 'received',
        amount: { value: 1000 },
      })
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'partially_captured', capturedValue: 1000 })
      await shop.backend.capture(order.id) // the rest
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'captured', capturedValue: 2800 })
      await shop.backend.refund(order.id, { amount: { currency: 'EUR', value: 800 } })
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'partially_refunded', refundedValue: 800 })
      expect(shop.changes.filter((c) => c.orderId === String(order.id)).map((c) => c.state)).toEqual([
        'authorised',
        'partially_captured',
        'captured',
        'partially_refunded',
      ])
    } finally {
      await shop.close()
    }
  })

  it('"the rest" right after a partial capture or refund is the rest, not the whole; one poll applies both', async () => {
    const shop = await startShop(t.world)
    try {
      const { order } = await t.paidOrder(shop, 2900)
      await shop.backend.capture(order.id, { amount: { currency: 'EUR', value: 2000 } })
      const rest = await shop.backend.capture(order.id)
      expect(rest).toMatchObject({ state: 'received', amount: { value: 900 } })
      // The same call again within the repeat window (a double click) is answered with that one; nothing is sent.
      const captures = t.world.proxy.counted('POST', '/captures')
      expect(await shop.backend.capture(order.id)).toEqual(rest)
      expect(t.world.proxy.counted('POST', '/captures')).toBe(captures)
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'captured', capturedValue: 2900 })
      await shop.backend.refund(order.id, { amount: { currency: 'EUR', value: 1000 } })
      expect(await shop.backend.refund(order.id)).toMatchObject({ state: 'received', amount: { value: 1900 } })
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'refunded', refundedValue: 2900 })
    } finally {
      await shop.close()
    }
  })

  it('no refund before a capture, no cancel after one, no capture above what is left, nothing on an unpaid order', async () => {
    const shop = await startShop(t.world)
    try {
      // An order the ledger holds no payment for, unpaid or unknown, is not found: not a payment in a wrong state.
      const unpaid = shop.createOrder()
      for (const orderId of [unpaid.id, 'no-such-order'])
        await expect(shop.backend.capture(orderId)).rejects.toMatchObject({
          code: 'ORDER_NOT_FOUND',
          message: 'orderId: the ledger holds no payment for this order',
        })
      const { order } = await t.paidOrder(shop)
      await expect(shop.backend.refund(order.id)).rejects.toMatchObject({
        code: 'MODIFICATION_NOT_ALLOWED',
        message: 'orderId: a refund needs a payment that is partially_captured or captured or partially_refunded',
      })
      await expect(shop.backend.capture(order.id, { amount: { currency: 'EUR', value: 2801 } })).rejects.toMatchObject({
        code: 'AMOUNT_NOT_ALLOWED',
        message: 'amount.value: an integer from 1 to what is left to capture (2800)',
        details: { left: { currency: 'EUR', value: 2800 } },
      })
      await shop.backend.capture(order.id, { amount: { currency: 'EUR', value: 100 } })
      // Asked for, not yet shown captured by the feed: the refusal says what it waits for.
      await expect(shop.backend.refund(order.id)).rejects.toMatchObject({
        code: 'MODIFICATION_NOT_ALLOWED',
        message: expect.stringContaining("the feed has not shown this payment's capture yet"),
      })
      await shop.backend.poller.pollNow()
      await expect(shop.backend.cancel(order.id)).rejects.toMatchObject({ code: 'MODIFICATION_NOT_ALLOWED' })
    } finally {
      await shop.close()
    }
  })

  it("the service's no to a capture the feed does not foresee yet (after a cancel) is 409 with its code, not a failure", async () => {
    const shop = await startShop(t.world)
    try {
      const { order } = await t.paidOrder(shop)
      await shop.backend.cancel(order.id)
      // The feed has not shown the cancel: the ledger lets the capture go, and the service says no.
      await expect(shop.backend.capture(order.id)).rejects.toMatchObject({
        code: 'MODIFICATION_REFUSED',
        message: 'capture: the payment service refused it (CAPTURE_NOT_ALLOWED)',
        details: { serviceCode: 'CAPTURE_NOT_ALLOWED' },
      })
    } finally {
      await shop.close()
    }
  })
})

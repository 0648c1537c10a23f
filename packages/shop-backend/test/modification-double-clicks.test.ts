/**
 * Capture, refund and cancel clicked twice, on one instance or on two over one ledger: the same
 * request, one call to the service, both clicks answered alike.
 */
import { describe, expect, it } from 'vitest'
import { modificationWorld } from './support/modification-world.js'
import { patientClient, startShop } from './support/shop.js'

const t = modificationWorld()

describe('capture, refund and cancel clicked twice', () => {
  it('a double click on a refund while the first call is still out is the same refund, not a second', async () => {
    // The proxy holds the refund back: a patient client, so a loaded machine cannot make it a timeout.
    const shop = await startShop(t.world, patientClient(t.world))
    const rule = t.world.proxy.rule
    try {
      const { order, payment } = await t.capturedOrder(shop)
      t.world.proxy.rule = (method, path) =>
        method === 'POST' && path.endsWith('/refunds') ? { action: 'forward', delayMs: 600 } : rule(method, path)
      const tenEuros = { amount: { currency: 'EUR', value: 1000 } }
      const [first, second] = await Promise.all([shop.backend.refund(order.id, tenEuros), shop.backend.refund(order.id, tenEuros)])
      expect(second.requestId).toBe(first.requestId)
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
    } finally {
      t.world.proxy.rule = rule
      await shop.close()
    }
  })

  it('two refunds lost (one plain, one with a requestId): a plain retry settles each under its key, and nothing goes twice', async () => {
    const shop = await startShop(t.world)
    try {
      const { order, payment } = await t.capturedOrder(shop)
      t.failing('lose-answers', '/refunds')
      const tenEuros = { amount: { currency: 'EUR', value: 1000 } }
      await expect(shop.backend.refund(order.id, tenEuros)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      await expect(
        shop.backend.refund(order.id, { amount: { currency: 'EUR', value: 500 }, requestId: 'click-refund-B' }),
      ).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      t.world.proxy.mode = 'pass'
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(2) // the service took both
      // The plain retry of the lost 1000: promised to go under its key.
      await shop.backend.refund(order.id, tenEuros)
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(2)
    } finally {
      await shop.close()
    }
  })

  it('a double click right after a retry settled a lost refund is that refund, with another refund made in between', async () => {
    let later = 0
    const shop = await startShop(t.world, { now: () => new Date(Date.now() + later) })
    try {
      const { order, payment } = await t.capturedOrder(shop)
      t.failing('lose-answers', '/refunds')
      const tenEuros = { amount: { currency: 'EUR', value: 1000 } }
      await expect(shop.backend.refund(order.id, tenEuros)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      t.world.proxy.mode = 'pass'
      await shop.backend.refund(order.id, { amount: { currency: 'EUR', value: 500 }, requestId: 'click-refund-C' })
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(2)
      later = 20_000
      const again = await shop.backend.refund(order.id, tenEuros) // settles the lost 1000 under its key
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(2)
      const click = await shop.backend.refund(order.id, tenEuros) // a double click, 0 s after the answer
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(2)
      expect(click.requestId).toBe(again.requestId)
    } finally {
      await shop.close()
    }
  })

  it('the same plain refund taken by two instances at once (one ledger, no shared lock) is one refund', async () => {
    const a = await startShop(t.world)
    const b = await startShop(t.world, { storePath: a.storePath, secretKey: a.secretKey })
    try {
      const { order, payment } = await t.capturedOrder(a)
      const tenEuros = { amount: { currency: 'EUR', value: 1000 } }
      const [first, second] = await Promise.all([a.backend.refund(order.id, tenEuros), b.backend.refund(order.id, tenEuros)])
      expect(second.requestId).toBe(first.requestId)
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
      // Another amount at once is another request: both go.
      const [five, seven] = await Promise.all([
        a.backend.refund(order.id, { amount: { currency: 'EUR', value: 500 } }),
        b.backend.refund(order.id, { amount: { currency: 'EUR', value: 700 } }),
      ])
      expect(five.requestId).not.toBe(seven.requestId)
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(3)
    } finally {
      await b.close()
      await a.close()
    }
  })

  const restWithId =
    'a plain "capture the rest" settling a lost part capture and a lost "rest" with a requestId answers with that rest, not the part'
  it(restWithId, async () => {
    const shop = await startShop(t.world)
    try {
      const { order, payment } = await t.paidOrder(shop)
      t.failing('lose-answers', '/captures')
      await expect(shop.backend.capture(order.id, { amount: { currency: 'EUR', value: 100 } })).rejects.toMatchObject({
        code: 'SERVICE_UNREACHABLE',
      })
      await expect(shop.backend.capture(order.id, { requestId: 'rest-click-1' })).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      t.world.proxy.mode = 'pass'
      // Both settled under their keys; the one that asked for this call's "rest" (2700, after the 100) is the answer.
      expect(await shop.backend.capture(order.id)).toMatchObject({
        requestId: 'rest-click-1',
        state: 'received',
        amount: { currency: 'EUR', value: 2700 },
      })
      expect(t.world.sandboxModifications(payment, 'capture')).toBe(2)
    } finally {
      await shop.close()
    }
  })

  const doubleClickRest =
    'a "refund the rest" click on two instances, the second reading after the first stored it, is that refund, not "nothing left"'
  it(doubleClickRest, async () => {
    // The second instance looks its requestId up before the first stores it, and reads the order's
    // requests after: its own row then counts as asked, and the rest is already zero.
    let firstDone: () => void = () => {}
    const firstStored = new Promise<void>((resolve) => {
      firstDone = resolve
    })
    const a = await startShop(t.world)
    const b = await startShop(t.world, {
      storePath: a.storePath,
      secretKey: a.secretKey,
      wrapStore: (store) =>
        Object.assign(Object.create(store) as typeof store, {
          findModification: async (id: string) => {
            const found = await store.findModification(id)
            if (id === 'rest-click-2') await firstStored
            return found
          },
        }),
    })
    try {
      const { order, payment } = await t.capturedOrder(a)
      await a.backend.refund(order.id, { amount: { currency: 'EUR', value: 1000 } })
      const second = b.backend.refund(order.id, { requestId: 'rest-click-2' })
      const first = await a.backend.refund(order.id, { requestId: 'rest-click-2' })
      firstDone()
      expect(first).toMatchObject({ requestId: 'rest-click-2', state: 'received', amount: { value: 1800 } })
      expect(await second).toEqual(first)
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(2)
    } finally {
      firstDone()
      await b.close()
      await a.close()
    }
  })

  const refundSettledByFeed =
    'a plain retry of a lost "refund the rest" after the feed shows the payment refunded is answered with that refund, not 409'
  it(refundSettledByFeed, async () => {
    const shop = await startShop(t.world)
    try {
      const { order, payment } = await t.capturedOrder(shop)
      t.failing('lose-answers', '/refunds')
      await expect(shop.backend.refund(order.id)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      t.world.proxy.mode = 'pass'
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'refunded', refundedValue: 2800 })
      expect(await shop.backend.refund(order.id)).toMatchObject({ kind: 'refund', state: 'received', amount: { value: 2800 } })
      // And so for a cancel lost, then shown cancelled.
      const { order: other, payment: otherPayment } = await t.paidOrder(shop)
      t.failing('lose-answers', '/cancels')
      await expect(shop.backend.cancel(other.id)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      t.world.proxy.mode = 'pass'
      await shop.backend.poller.pollNow()
      expect(await shop.backend.cancel(other.id)).toMatchObject({ kind: 'cancel', state: 'received' })
      expect([t.world.sandboxModifications(payment, 'refund'), t.world.sandboxModifications(otherPayment, 'cancel')]).toEqual([1, 1])
    } finally {
      await shop.close()
    }
  })
})

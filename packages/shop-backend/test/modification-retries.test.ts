/**
 * A capture, refund or cancel whose answer was lost, or that the service never got, called again: sent
 * under its stored key, settled once, never refused as "nothing left" for money it took itself.
 */
import { describe, expect, it } from 'vitest'
import { createServiceClient } from '@card-jwe/service-client'
import { modificationWorld } from './support/modification-world.js'
import { startShop } from './support/shop.js'

const t = modificationWorld()

describe('capture, refund and cancel called again after a lost answer', () => {
  it('"the rest" again once all is taken, long past the repeat window, gets the request that took it; nothing sent', async () => {
    // The answer to the first call may have been lost on its way to the merchant (an instance killed
    // after storing it): the plain call again must say what took the rest, never "nothing is left".
    const shop = await startShop(t.world, { repeatWindowMs: 0 })
    try {
      const { order, payment } = await t.paidOrder(shop)
      await shop.backend.capture(order.id, { amount: { currency: 'EUR', value: 800 } })
      const rest = await shop.backend.capture(order.id)
      expect(rest).toMatchObject({ state: 'received', amount: { value: 2000 } })
      // The rest is taken before the feed shows it ...
      expect(await shop.backend.capture(order.id)).toEqual(rest)
      await shop.backend.poller.pollNow()
      // ... and after it shows the payment captured.
      expect(await shop.backend.capture(order.id)).toEqual(rest)
      await shop.backend.refund(order.id, { amount: { currency: 'EUR', value: 500 } })
      const refundRest = await shop.backend.refund(order.id)
      expect(refundRest).toMatchObject({ state: 'received', amount: { value: 2300 } })
      // So for the refund: before the feed shows it ...
      expect(await shop.backend.refund(order.id)).toEqual(refundRest)
      // ... and after it shows the payment refunded.
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'refunded', refundedValue: 2800 })
      expect(await shop.backend.refund(order.id)).toEqual(refundRest)
      expect([t.world.sandboxModifications(payment, 'capture'), t.world.sandboxModifications(payment, 'refund')]).toEqual([2, 2])
    } finally {
      await shop.close()
    }
  })

  it.each([
    ['answered, long past the repeat window', 0, false],
    ['answered, within the repeat window', 15_000, false],
    ['its answer lost', 0, true],
  ])('"capture the rest" once a part capture (%s) was partly refunded is refused, not told the part capture', async (_, windowMs, lost) => {
    // The rest of the authorisation is still there, but a refunded payment takes no capture: 409. The
    // part capture asked for an amount, not the rest: it is not what this call repeats (a lost one is settled).
    const shop = await startShop(t.world, { repeatWindowMs: windowMs })
    try {
      const { order, payment } = await t.paidOrder(shop)
      if (lost) t.failing('lose-answers', '/captures')
      const part = await shop.backend.capture(order.id, { amount: { currency: 'EUR', value: 1000 } }).catch((error: unknown) => error)
      expect(part).toMatchObject(lost ? { code: 'SERVICE_UNREACHABLE' } : { state: 'received' })
      t.world.proxy.mode = 'pass'
      await shop.backend.poller.pollNow()
      await shop.backend.refund(order.id, { amount: { currency: 'EUR', value: 300 } })
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'partially_refunded', capturedValue: 1000 })
      expect(await shop.backend.capture(order.id).catch((error: unknown) => error)).toMatchObject({ code: 'MODIFICATION_NOT_ALLOWED' })
      expect(t.world.sandboxModifications(payment, 'capture')).toBe(1)
    } finally {
      await shop.close()
    }
  })

  it('"refund the rest" of a part capture, its answer lost and the feed showing it, is told when called again', async () => {
    // A part capture stays partially refunded when all of it is refunded: the state still allows a
    // refund, so only what the request asked for tells the repeat from a new one.
    const shop = await startShop(t.world, { repeatWindowMs: 0 })
    try {
      const { order, payment } = await t.paidOrder(shop)
      await shop.backend.capture(order.id, { amount: { currency: 'EUR', value: 1500 } })
      await shop.backend.poller.pollNow()
      await shop.backend.refund(order.id, { amount: { currency: 'EUR', value: 500 } })
      t.failing('lose-answers', '/refunds')
      const lost = await shop.backend.refund(order.id).catch((error: unknown) => error)
      expect(lost).toMatchObject({ code: 'SERVICE_UNREACHABLE', details: { requestId: expect.any(String) } })
      t.world.proxy.mode = 'pass'
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'partially_refunded', refundedValue: 1500 })
      const rest = { state: 'received', amount: { value: 1000 }, requestId: (lost as { details: { requestId: string } }).details.requestId }
      // Settled under its key, then told; and told again, long past the repeat window.
      expect(await shop.backend.refund(order.id)).toMatchObject(rest)
      expect(await shop.backend.refund(order.id)).toMatchObject(rest)
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(2)
    } finally {
      await shop.close()
    }
  })

  it('a cancel whose answer was lost, repeated with the same requestId, is sent under the same key: one cancel', async () => {
    const shop = await startShop(t.world)
    try {
      const { order, payment } = await t.paidOrder(shop)
      const earlier = t.world.proxy.keysForwarded('POST', '/cancels') // other tests' cancels in this file
      t.failing('lose-answers', '/cancels')
      await expect(shop.backend.cancel(order.id, { requestId: 'click-0001' })).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      t.world.proxy.mode = 'pass'
      const ours = () => t.world.proxy.keysForwarded('POST', '/cancels').filter((key) => !earlier.includes(key))
      const lost = ours()
      const cancels = t.world.proxy.counted('POST', '/cancels')
      const again = await shop.backend.cancel(order.id, { requestId: 'click-0001' })
      expect(again).toMatchObject({ state: 'received', kind: 'cancel' })
      // Sent again (a kept-alive connection the proxy dropped may add a retry: same key either way) ...
      expect(t.world.proxy.counted('POST', '/cancels')).toBeGreaterThan(cancels)
      // ... under the key of the lost tries, so the service made one cancel.
      expect(lost).toHaveLength(1)
      expect(ours()).toEqual(lost)
      expect(t.world.sandboxModifications(payment, 'cancel')).toBe(1)
      // A third press of the same click is answered from the ledger: nothing sent.
      const sent = t.world.proxy.counted('POST', '/cancels')
      expect(await shop.backend.cancel(order.id, { requestId: 'click-0001' })).toEqual(again)
      expect(t.world.proxy.counted('POST', '/cancels')).toBe(sent)
      expect(t.world.sandboxModifications(payment, 'cancel')).toBe(1)
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'cancelled' })
    } finally {
      await shop.close()
    }
  })

  it('a refund whose answer was lost, called again with the same amount and no requestId, goes under its key: one refund', async () => {
    let later = 0
    const shop = await startShop(t.world, { now: () => new Date(Date.now() + later) })
    try {
      const { order, payment } = await t.capturedOrder(shop)
      t.failing('lose-answers', '/refunds')
      const tenEuros = { amount: { currency: 'EUR', value: 1000 } }
      const lost = await shop.backend.refund(order.id, tenEuros).catch((error: unknown) => error)
      t.world.proxy.mode = 'pass'
      // The error names the request id a caller may repeat; a plain retry finds the same one.
      expect(lost).toMatchObject({ code: 'SERVICE_UNREACHABLE', details: { requestId: expect.any(String) } })
      later = 20_000 // the service came back 20 s later, past the repeat window since the refund was stored
      const again = await shop.backend.refund(order.id, tenEuros)
      expect(again).toMatchObject({ state: 'received', requestId: (lost as { details: { requestId: string } }).details.requestId })
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
      // A second click right after the answer is the same refund: the window runs from the answer.
      expect(await shop.backend.refund(order.id, tenEuros)).toEqual(again)
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
      // Another amount is another action: it goes, once.
      await shop.backend.refund(order.id, { amount: { currency: 'EUR', value: 500 } })
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(2)
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'partially_refunded', refundedValue: 1500 })
    } finally {
      await shop.close()
    }
  })

  it.each(['capture', 'refund'] as const)(
    'a %s of an amount written value first, its answer lost, is sent again byte for byte under its key: one of it',
    async (kind) => {
      const shop = await startShop(t.world)
      try {
        const { order, payment } = kind === 'capture' ? await t.paidOrder(shop) : await t.capturedOrder(shop)
        const path = kind === 'capture' ? '/captures' : '/refunds'
        const before = t.world.proxy.callsForwarded('POST', path).length
        // The shop's own code may build the amount in any key order; the type allows it.
        const tenEuros = { amount: { value: 1000, currency: 'EUR' } }
        t.failing('lose-answers', path)
        await expect(shop.backend[kind](order.id, tenEuros)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
        t.world.proxy.mode = 'pass'
        expect(await shop.backend[kind](order.id, tenEuros)).toMatchObject({ state: 'received', amount: { value: 1000 } })
        const calls = t.world.proxy.callsForwarded('POST', path).slice(before)
        // The retry sent what the lost call sent, under its key: the service repeats its answer, nothing moves twice.
        expect(new Set(calls.map((c) => c.key)).size).toBe(1)
        expect(new Set(calls.map((c) => c.body)).size).toBe(1)
        expect(t.world.sandboxModifications(payment, kind)).toBe(1)
      } finally {
        await shop.close()
      }
    },
  )

  it('a refund whose key the service says names another request stays open: 503 with its id, none sent under a new key', async () => {
    const lines: string[] = []
    const shop = await startShop(t.world, { log: (line) => lines.push(line) })
    try {
      const { order, payment } = await t.capturedOrder(shop)
      t.failing('down', '/refunds')
      const tenEuros = { amount: { currency: 'EUR', value: 1000 } }
      const lost = await shop.backend.refund(order.id, tenEuros).catch((error: unknown) => error)
      expect(lost).toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      t.world.proxy.mode = 'pass'
      // Another request reaches the service under that key first (as a shop that sent another body would).
      const [attempt] = await shop.store.listAttempts(String(order.id))
      const refunds = async () => (await shop.store.listModifications(attempt!.id)).filter((m) => m.kind === 'refund')
      const [stored] = await refunds()
      const direct = createServiceClient({ baseUrl: t.world.sandbox.baseUrl, credentials: t.world.sandbox.readyMadeShop })
      await direct.refund(payment, { currency: 'EUR', value: 500 }, { idempotencyKey: stored!.idempotencyKey })
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
      // That request may have moved money: the outcome is open, never a refusal that lets a new key go.
      const again = await shop.backend.refund(order.id, tenEuros).catch((error: unknown) => error)
      expect(again).toMatchObject({ code: 'OUTCOME_PENDING', details: { requestId: stored!.id } })
      expect((await refunds()).map((m) => m.state)).toEqual(['requested'])
      // The merchant's log says so, naming the order and the request.
      expect(lines).toContainEqual(
        expect.stringContaining(`order ${order.id}: refund ${stored!.id} stays open (its key names another request`),
      )
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
    } finally {
      await shop.close()
    }
  })

  it('a capture the service never got (it was down), called again for the rest, is sent then: received, one capture', async () => {
    const shop = await startShop(t.world)
    try {
      const { order, payment } = await t.paidOrder(shop)
      t.failing('down', '/captures')
      await expect(shop.backend.capture(order.id)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      t.world.proxy.mode = 'pass'
      expect(t.world.sandboxModifications(payment, 'capture')).toBe(0)
      // Stored and never answered: not "nothing is left to capture", but the same capture sent now.
      expect(await shop.backend.capture(order.id)).toMatchObject({ state: 'received', amount: { value: 2800 } })
      expect(t.world.sandboxModifications(payment, 'capture')).toBe(1)
    } finally {
      await shop.close()
    }
  })

  it('"the rest" after a partial capture whose answer was lost settles that one under its key, then captures the rest', async () => {
    const shop = await startShop(t.world)
    try {
      const { order, payment } = await t.paidOrder(shop)
      t.failing('lose-answers', '/captures')
      await expect(shop.backend.capture(order.id, { amount: { currency: 'EUR', value: 1000 } })).rejects.toMatchObject({
        code: 'SERVICE_UNREACHABLE',
      })
      t.world.proxy.mode = 'pass'
      await shop.backend.poller.pollNow() // the feed shows the 1000
      expect(await shop.backend.capture(order.id)).toMatchObject({ state: 'received', amount: { value: 1800 } })
      expect(t.world.sandboxModifications(payment, 'capture')).toBe(2)
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'captured', capturedValue: 2800 })
    } finally {
      await shop.close()
    }
  })

  it('a cancel the service never got is not sent once the order is captured: 409, nothing sent', async () => {
    const shop = await startShop(t.world)
    try {
      const { order } = await t.paidOrder(shop)
      t.failing('down', '/cancels')
      await expect(shop.backend.cancel(order.id)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      t.world.proxy.mode = 'pass'
      await shop.backend.capture(order.id)
      await shop.backend.poller.pollNow()
      const cancels = t.world.proxy.counted('POST', '/cancels')
      await expect(shop.backend.cancel(order.id)).rejects.toMatchObject({ code: 'MODIFICATION_NOT_ALLOWED' })
      expect(t.world.proxy.counted('POST', '/cancels')).toBe(cancels)
    } finally {
      await shop.close()
    }
  })
})

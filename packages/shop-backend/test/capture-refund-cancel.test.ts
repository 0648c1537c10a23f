import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startShop, startWorld, type TestShop, type World } from './support/shop.js'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())
let forwardEverything: typeof world.proxy.rule
beforeAll(() => {
  forwardEverything = world.proxy.rule
})
afterEach(() => {
  world.proxy.mode = 'pass'
  world.proxy.matches = () => true
  world.proxy.rule = forwardEverything
})

/** The service as seen through the proxy for POSTs to `pathEnd` until the test ends: answers lost, or down. */
function failing(mode: 'lose-answers' | 'down', pathEnd: string) {
  world.proxy.matches = (method, path) => method === 'POST' && path.endsWith(pathEnd)
  world.proxy.mode = mode
}

/** A new order of 28.00, paid by card and captured whole, the capture shown by the feed. */
async function capturedOrder(shop: TestShop) {
  const order = shop.createOrder(2800)
  expect((await shop.post('/api/payments', await shop.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
  await shop.backend.capture(order.id)
  await shop.backend.poller.pollNow()
  return { order, payment: (await shop.store.listAttempts(String(order.id)))[0]!.pspReference! }
}

describe('capture, refund and cancel by order', () => {
  it('capture part, capture the rest, refund part: each through the feed into the ledger, and the shop hears each state', async () => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder(2800)
      expect((await shop.post('/api/payments', await shop.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
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
    const shop = await startShop(world)
    try {
      const order = shop.createOrder(2900)
      await shop.post('/api/payments', await shop.cardSubmission(order))
      await shop.backend.capture(order.id, { amount: { currency: 'EUR', value: 2000 } })
      const rest = await shop.backend.capture(order.id)
      expect(rest).toMatchObject({ state: 'received', amount: { value: 900 } })
      // The same call again within the repeat window (a double click) is answered with that one; nothing is sent.
      const captures = world.proxy.counted('POST', '/captures')
      expect(await shop.backend.capture(order.id)).toEqual(rest)
      expect(world.proxy.counted('POST', '/captures')).toBe(captures)
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
    const shop = await startShop(world)
    try {
      const unpaid = shop.createOrder()
      await expect(shop.backend.capture(unpaid.id)).rejects.toMatchObject({ code: 'MODIFICATION_NOT_ALLOWED' })
      const order = shop.createOrder(2800)
      await shop.post('/api/payments', await shop.cardSubmission(order))
      await expect(shop.backend.refund(order.id)).rejects.toMatchObject({ code: 'MODIFICATION_NOT_ALLOWED' })
      await expect(shop.backend.capture(order.id, { amount: { currency: 'EUR', value: 2801 } })).rejects.toMatchObject({
        code: 'AMOUNT_NOT_ALLOWED',
        message: expect.stringContaining('amount.value'),
      })
      await shop.backend.capture(order.id, { amount: { currency: 'EUR', value: 100 } })
      await shop.backend.poller.pollNow()
      await expect(shop.backend.cancel(order.id)).rejects.toMatchObject({ code: 'MODIFICATION_NOT_ALLOWED' })
    } finally {
      await shop.close()
    }
  })

  it('"the rest" again once all is taken, long past the repeat window, gets the request that took it; nothing sent', async () => {
    // The answer to the first call may have been lost on its way to the merchant (an instance killed
    // after storing it): the plain call again must say what took the rest, never "nothing is left".
    const shop = await startShop(world, { repeatWindowMs: 0 })
    try {
      const order = shop.createOrder(2800)
      await shop.post('/api/payments', await shop.cardSubmission(order))
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
      const payment = (await shop.store.listAttempts(String(order.id)))[0]!.pspReference!
      expect([world.sandboxModifications(payment, 'capture'), world.sandboxModifications(payment, 'refund')]).toEqual([2, 2])
    } finally {
      await shop.close()
    }
  })

  it('a cancel whose answer was lost, repeated with the same requestId, is sent under the same key: one cancel', async () => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder()
      await shop.post('/api/payments', await shop.cardSubmission(order))
      const earlier = world.proxy.keysForwarded('POST', '/cancels') // other tests' cancels in this file
      failing('lose-answers', '/cancels')
      await expect(shop.backend.cancel(order.id, { requestId: 'click-0001' })).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      world.proxy.mode = 'pass'
      const ours = () => world.proxy.keysForwarded('POST', '/cancels').filter((key) => !earlier.includes(key))
      const lost = ours()
      const cancels = world.proxy.counted('POST', '/cancels')
      const again = await shop.backend.cancel(order.id, { requestId: 'click-0001' })
      expect(again).toMatchObject({ state: 'received', kind: 'cancel' })
      // Sent again (a kept-alive connection the proxy dropped may add a retry: same key either way) ...
      expect(world.proxy.counted('POST', '/cancels')).toBeGreaterThan(cancels)
      // ... under the key of the lost tries, so the service made one cancel.
      expect(lost).toHaveLength(1)
      expect(ours()).toEqual(lost)
      const payment = (await shop.store.listAttempts(String(order.id)))[0]!.pspReference!
      expect(world.sandboxModifications(payment, 'cancel')).toBe(1)
      // A third press of the same click is answered from the ledger: nothing sent.
      const sent = world.proxy.counted('POST', '/cancels')
      expect(await shop.backend.cancel(order.id, { requestId: 'click-0001' })).toEqual(again)
      expect(world.proxy.counted('POST', '/cancels')).toBe(sent)
      expect(world.sandboxModifications(payment, 'cancel')).toBe(1)
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'cancelled' })
    } finally {
      await shop.close()
    }
  })

  it('a refund whose answer was lost, called again with the same amount and no requestId, goes under its key: one refund', async () => {
    let later = 0
    const shop = await startShop(world, { now: () => new Date(Date.now() + later) })
    try {
      const { order, payment } = await capturedOrder(shop)
      failing('lose-answers', '/refunds')
      const tenEuros = { amount: { currency: 'EUR', value: 1000 } }
      const lost = await shop.backend.refund(order.id, tenEuros).catch((error: unknown) => error)
      world.proxy.mode = 'pass'
      // The error names the request id a caller may repeat; a plain retry finds the same one.
      expect(lost).toMatchObject({ code: 'SERVICE_UNREACHABLE', details: { requestId: expect.any(String) } })
      later = 20_000 // the service came back 20 s later, past the repeat window since the refund was stored
      const again = await shop.backend.refund(order.id, tenEuros)
      expect(again).toMatchObject({ state: 'received', requestId: (lost as { details: { requestId: string } }).details.requestId })
      expect(world.sandboxModifications(payment, 'refund')).toBe(1)
      // A second click right after the answer is the same refund: the window runs from the answer.
      expect(await shop.backend.refund(order.id, tenEuros)).toEqual(again)
      expect(world.sandboxModifications(payment, 'refund')).toBe(1)
      // Another amount is another action: it goes, once.
      await shop.backend.refund(order.id, { amount: { currency: 'EUR', value: 500 } })
      expect(world.sandboxModifications(payment, 'refund')).toBe(2)
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'partially_refunded', refundedValue: 1500 })
    } finally {
      await shop.close()
    }
  })

  it('a capture the service never got (it was down), called again for the rest, is sent then: received, one capture', async () => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder(2800)
      await shop.post('/api/payments', await shop.cardSubmission(order))
      failing('down', '/captures')
      await expect(shop.backend.capture(order.id)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      world.proxy.mode = 'pass'
      const payment = (await shop.store.listAttempts(String(order.id)))[0]!.pspReference!
      expect(world.sandboxModifications(payment, 'capture')).toBe(0)
      // Stored and never answered: not "nothing is left to capture", but the same capture sent now.
      expect(await shop.backend.capture(order.id)).toMatchObject({ state: 'received', amount: { value: 2800 } })
      expect(world.sandboxModifications(payment, 'capture')).toBe(1)
    } finally {
      await shop.close()
    }
  })

  it('"the rest" after a partial capture whose answer was lost settles that one under its key, then captures the rest', async () => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder(2800)
      await shop.post('/api/payments', await shop.cardSubmission(order))
      const payment = (await shop.store.listAttempts(String(order.id)))[0]!.pspReference!
      failing('lose-answers', '/captures')
      await expect(shop.backend.capture(order.id, { amount: { currency: 'EUR', value: 1000 } })).rejects.toMatchObject({
        code: 'SERVICE_UNREACHABLE',
      })
      world.proxy.mode = 'pass'
      await shop.backend.poller.pollNow() // the feed shows the 1000
      expect(await shop.backend.capture(order.id)).toMatchObject({ state: 'received', amount: { value: 1800 } })
      expect(world.sandboxModifications(payment, 'capture')).toBe(2)
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'captured', capturedValue: 2800 })
    } finally {
      await shop.close()
    }
  })

  it('a cancel the service never got is not sent once the order is captured: 409, nothing sent', async () => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder(2800)
      await shop.post('/api/payments', await shop.cardSubmission(order))
      failing('down', '/cancels')
      await expect(shop.backend.cancel(order.id)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      world.proxy.mode = 'pass'
      await shop.backend.capture(order.id)
      await shop.backend.poller.pollNow()
      const cancels = world.proxy.counted('POST', '/cancels')
      await expect(shop.backend.cancel(order.id)).rejects.toMatchObject({ code: 'MODIFICATION_NOT_ALLOWED' })
      expect(world.proxy.counted('POST', '/cancels')).toBe(cancels)
    } finally {
      await shop.close()
    }
  })

  it('a double click on a refund while the first call is still out is the same refund, not a second', async () => {
    const shop = await startShop(world)
    const rule = world.proxy.rule
    try {
      const { order, payment } = await capturedOrder(shop)
      world.proxy.rule = (method, path) =>
        method === 'POST' && path.endsWith('/refunds') ? { action: 'forward', delayMs: 600 } : rule(method, path)
      const tenEuros = { amount: { currency: 'EUR', value: 1000 } }
      const [first, second] = await Promise.all([shop.backend.refund(order.id, tenEuros), shop.backend.refund(order.id, tenEuros)])
      expect(second.requestId).toBe(first.requestId)
      expect(world.sandboxModifications(payment, 'refund')).toBe(1)
    } finally {
      world.proxy.rule = rule
      await shop.close()
    }
  })

  it('two refunds lost (one plain, one with a requestId): a plain retry settles each under its key, and nothing goes twice', async () => {
    const shop = await startShop(world)
    try {
      const { order, payment } = await capturedOrder(shop)
      failing('lose-answers', '/refunds')
      const tenEuros = { amount: { currency: 'EUR', value: 1000 } }
      await expect(shop.backend.refund(order.id, tenEuros)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      await expect(
        shop.backend.refund(order.id, { amount: { currency: 'EUR', value: 500 }, requestId: 'click-refund-B' }),
      ).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      world.proxy.mode = 'pass'
      expect(world.sandboxModifications(payment, 'refund')).toBe(2) // the service took both
      // The plain retry of the lost 1000: promised to go under its key.
      await shop.backend.refund(order.id, tenEuros)
      expect(world.sandboxModifications(payment, 'refund')).toBe(2)
    } finally {
      await shop.close()
    }
  })

  it('a double click right after a retry settled a lost refund is that refund, with another refund made in between', async () => {
    let later = 0
    const shop = await startShop(world, { now: () => new Date(Date.now() + later) })
    try {
      const { order, payment } = await capturedOrder(shop)
      failing('lose-answers', '/refunds')
      const tenEuros = { amount: { currency: 'EUR', value: 1000 } }
      await expect(shop.backend.refund(order.id, tenEuros)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      world.proxy.mode = 'pass'
      await shop.backend.refund(order.id, { amount: { currency: 'EUR', value: 500 }, requestId: 'click-refund-C' })
      expect(world.sandboxModifications(payment, 'refund')).toBe(2)
      later = 20_000
      const again = await shop.backend.refund(order.id, tenEuros) // settles the lost 1000 under its key
      expect(world.sandboxModifications(payment, 'refund')).toBe(2)
      const click = await shop.backend.refund(order.id, tenEuros) // a double click, 0 s after the answer
      expect(world.sandboxModifications(payment, 'refund')).toBe(2)
      expect(click.requestId).toBe(again.requestId)
    } finally {
      await shop.close()
    }
  })

  it('the same plain refund taken by two instances at once (one ledger, no shared lock) is one refund', async () => {
    const a = await startShop(world)
    const b = await startShop(world, { storePath: a.storePath, secretKey: a.secretKey })
    try {
      const { order, payment } = await capturedOrder(a)
      const tenEuros = { amount: { currency: 'EUR', value: 1000 } }
      const [first, second] = await Promise.all([a.backend.refund(order.id, tenEuros), b.backend.refund(order.id, tenEuros)])
      expect(second.requestId).toBe(first.requestId)
      expect(world.sandboxModifications(payment, 'refund')).toBe(1)
      // Another amount at once is another request: both go.
      const [five, seven] = await Promise.all([
        a.backend.refund(order.id, { amount: { currency: 'EUR', value: 500 } }),
        b.backend.refund(order.id, { amount: { currency: 'EUR', value: 700 } }),
      ])
      expect(five.requestId).not.toBe(seven.requestId)
      expect(world.sandboxModifications(payment, 'refund')).toBe(3)
    } finally {
      await b.close()
      await a.close()
    }
  })

  const restWithId =
    'a plain "capture the rest" settling a lost part capture and a lost "rest" with a requestId answers with that rest, not the part'
  it(restWithId, async () => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder(2800)
      expect((await shop.post('/api/payments', await shop.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
      failing('lose-answers', '/captures')
      await expect(shop.backend.capture(order.id, { amount: { currency: 'EUR', value: 100 } })).rejects.toMatchObject({
        code: 'SERVICE_UNREACHABLE',
      })
      await expect(shop.backend.capture(order.id, { requestId: 'rest-click-1' })).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      world.proxy.mode = 'pass'
      // Both settled under their keys; the one that asked for this call's "rest" (2700, after the 100) is the answer.
      expect(await shop.backend.capture(order.id)).toMatchObject({
        requestId: 'rest-click-1',
        state: 'received',
        amount: { currency: 'EUR', value: 2700 },
      })
      const payment = (await shop.store.listAttempts(String(order.id)))[0]!.pspReference!
      expect(world.sandboxModifications(payment, 'capture')).toBe(2)
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
    const a = await startShop(world)
    const b = await startShop(world, {
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
      const { order, payment } = await capturedOrder(a)
      await a.backend.refund(order.id, { amount: { currency: 'EUR', value: 1000 } })
      const second = b.backend.refund(order.id, { requestId: 'rest-click-2' })
      const first = await a.backend.refund(order.id, { requestId: 'rest-click-2' })
      firstDone()
      expect(first).toMatchObject({ requestId: 'rest-click-2', state: 'received', amount: { value: 1800 } })
      expect(await second).toEqual(first)
      expect(world.sandboxModifications(payment, 'refund')).toBe(2)
    } finally {
      firstDone()
      await b.close()
      await a.close()
    }
  })

  const refundSettledByFeed =
    'a plain retry of a lost "refund the rest" after the feed shows the payment refunded is answered with that refund, not 409'
  it(refundSettledByFeed, async () => {
    const shop = await startShop(world)
    try {
      const { order, payment } = await capturedOrder(shop)
      failing('lose-answers', '/refunds')
      await expect(shop.backend.refund(order.id)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      world.proxy.mode = 'pass'
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'refunded', refundedValue: 2800 })
      expect(await shop.backend.refund(order.id)).toMatchObject({ kind: 'refund', state: 'received', amount: { value: 2800 } })
      // And so for a cancel lost, then shown cancelled.
      const other = shop.createOrder(2800)
      await shop.post('/api/payments', await shop.cardSubmission(other))
      failing('lose-answers', '/cancels')
      await expect(shop.backend.cancel(other.id)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      world.proxy.mode = 'pass'
      await shop.backend.poller.pollNow()
      expect(await shop.backend.cancel(other.id)).toMatchObject({ kind: 'cancel', state: 'received' })
      const otherPayment = (await shop.store.listAttempts(String(other.id)))[0]!.pspReference!
      expect([world.sandboxModifications(payment, 'refund'), world.sandboxModifications(otherPayment, 'cancel')]).toEqual([1, 1])
    } finally {
      await shop.close()
    }
  })
})

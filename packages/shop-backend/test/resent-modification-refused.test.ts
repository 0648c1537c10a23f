/**
 * A capture, refund or cancel sent again under its key and refused by something that answers before
 * the service reads the key (a 401 for a skewed clock, a gateway's 404): an earlier send may have
 * moved the money, so the request stays open and the next send under the same key settles it. Never
 * stored refused, which would let the merchant's next click go under a new key and move it twice.
 */
import { describe, expect, it } from 'vitest'
import { modificationWorld } from './support/modification-world.js'
import { startShop, type TestShop } from './support/shop.js'

const t = modificationWorld()
const tenEuros = { currency: 'EUR', value: 1000 }

/** POST /refunds: the n-th (from 1) gets what `actionOf(n)` says, the rest forwarded. */
function refundsBy(actionOf: (n: number) => ReturnType<typeof t.world.proxy.rule>) {
  let n = 0
  t.world.proxy.rule = (method, path) => (method === 'POST' && path.endsWith('/refunds') ? actionOf(++n) : { action: 'forward' })
}

const refundRows = async (shop: TestShop, orderId: string | number) =>
  (await shop.store.listModifications(`${orderId}:1`)).filter((m) => m.kind === 'refund').map((m) => m.state)

describe('a capture, refund or cancel sent again and refused before its key was read', () => {
  it('repeated by its requestId, refused, it stays open, and the repeat after that gets the first refund: one refund', async () => {
    const shop = await startShop(t.world)
    try {
      const { order, payment } = await t.capturedOrder(shop)
      const click = { amount: tenEuros, requestId: 'click-R1-0001' }
      t.failing('lose-answers', '/refunds')
      await expect(shop.backend.refund(order.id, click)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      refundsBy(() => ({ action: 'refuse' }))
      await expect(shop.backend.refund(order.id, click)).rejects.toMatchObject({
        code: 'OUTCOME_PENDING',
        details: { requestId: 'click-R1-0001', serviceCode: 'SIGNATURE_STALE' },
      })
      expect(await refundRows(shop, order.id)).toEqual(['requested'])
      refundsBy(() => ({ action: 'forward' }))
      expect(await shop.backend.refund(order.id, click)).toMatchObject({ state: 'received', requestId: 'click-R1-0001' })
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
    } finally {
      await shop.close()
    }
  })

  it('called again plainly, its resend refused once, the refund is not asked for under a new key: one refund', async () => {
    const shop = await startShop(t.world)
    try {
      const { order, payment } = await t.capturedOrder(shop)
      t.failing('lose-answers', '/refunds')
      const lost = await shop.backend.refund(order.id, { amount: tenEuros }).catch((error: unknown) => error)
      expect(lost).toMatchObject({ code: 'SERVICE_UNREACHABLE', details: { requestId: expect.any(String) } })
      const requestId = (lost as { details: { requestId: string } }).details.requestId
      refundsBy((n) => (n === 1 ? { action: 'refuse', refusal: { status: 404, errorCode: 'NOT_FOUND' } } : { action: 'forward' }))
      await expect(shop.backend.refund(order.id, { amount: tenEuros })).rejects.toMatchObject({
        code: 'OUTCOME_PENDING',
        details: { requestId },
      })
      expect(await shop.backend.refund(order.id, { amount: tenEuros })).toMatchObject({ state: 'received', requestId })
      expect(await refundRows(shop, order.id)).toEqual(['received'])
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
    } finally {
      await shop.close()
    }
  })

  it('the instance whose first send the service took answers received, though another refused its repeat meanwhile', async () => {
    const a = await startShop(t.world)
    const b = await startShop(t.world, { storePath: a.storePath, secretKey: a.secretKey })
    try {
      const { order, payment } = await t.capturedOrder(a)
      b.orders.set(String(order.id), order)
      const click = { amount: tenEuros, requestId: 'click-R2-0001' }
      let release = () => {}
      const held = new Promise<void>((resolve) => (release = resolve))
      refundsBy((n) => (n === 1 ? { action: 'forward', holdUntil: held } : { action: 'refuse' }))
      const before = t.world.proxy.started('POST', '/refunds')
      const first = a.backend.refund(order.id, click).catch((error: unknown) => error)
      await expect.poll(() => t.world.proxy.started('POST', '/refunds')).toBe(before + 1)
      // The repeat lands on the other instance, whose clock the service finds stale.
      await expect(b.backend.refund(order.id, click)).rejects.toMatchObject({ code: 'OUTCOME_PENDING' })
      release()
      expect(await first).toMatchObject({ state: 'received', requestId: 'click-R2-0001' })
      expect(await refundRows(a, order.id)).toEqual(['received'])
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
    } finally {
      await b.close()
      await a.close()
    }
  })
})

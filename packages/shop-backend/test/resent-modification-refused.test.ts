/**
 * A capture, refund or cancel sent again under its key and refused by something that answers before
 * the service reads the key (a 401 for a skewed clock, a gateway's 404): an earlier send may have
 * moved the money, so the request stays open and the next send under the same key settles it; stored
 * refused, the merchant's next click would go under a new key and move it twice. The service's own
 * 422, judged after the key, ends it.
 */
import { describe, expect, it } from 'vitest'
import { instanceLedgers, onOneShop, onTwoInstances, type InstanceLedger } from './support/instance-ledgers.js'
import { modificationWorld } from './support/modification-world.js'
import type { TestShop } from './support/shop.js'

const t = modificationWorld()
const tenEuros = { currency: 'EUR', value: 1000 }

/** POST /refunds: the n-th (from 1) gets what `actionOf(n)` says, the rest forwarded. */
function refundsBy(actionOf: (n: number) => ReturnType<typeof t.world.proxy.rule>) {
  let n = 0
  t.world.proxy.rule = (method, path) => (method === 'POST' && path.endsWith('/refunds') ? actionOf(++n) : { action: 'forward' })
}

/** The next POST /refunds held at the proxy until `release()`, those after it as `after` says; `arrived` waits for it. */
function holdNextRefund(after: ReturnType<typeof t.world.proxy.rule>) {
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  refundsBy((n) => (n === 1 ? { action: 'forward', holdUntil: held } : after))
  const before = t.world.proxy.started('POST', '/refunds')
  return { release, arrived: () => expect.poll(() => t.world.proxy.started('POST', '/refunds')).toBe(before + 1) }
}

const ledgers = instanceLedgers(t, 'resent_refused')

/** `run` with two instances on one ledger (no shared lock), and an order paid and captured on the first. */
const onTwoCaptured = (
  open: () => Promise<InstanceLedger>,
  run: (a: TestShop, b: TestShop, captured: Awaited<ReturnType<typeof t.capturedOrder>>) => Promise<void>,
) =>
  onTwoInstances(open, {}, async (a, b) => {
    const captured = await t.capturedOrder(a)
    b.orders.set(String(captured.order.id), captured.order)
    await run(a, b, captured)
  })

/** The admin's /problems list of captures, refunds and cancels left open. */
async function openModificationsListed(shop: TestShop): Promise<unknown[]> {
  const answer = await shop.backend.fetch(new Request('http://shop.test/api/admin/problems'), { ip: '127.0.0.1' })
  return ((await answer.json()) as { openModifications: unknown[] }).openModifications
}

const refundRows = async (shop: TestShop, orderId: string | number) => (await t.refundsOf(shop, orderId)).map((m) => m.state)

for (const { name, skip, open } of ledgers) {
  describe.skipIf(skip)(`a capture, refund or cancel sent again and refused (${name})`, () => {
    it('repeated by its requestId and refused, it stays open (its code in /problems); the repeat after gets the first refund', async () => {
      let later = 0
      await onOneShop(open, { now: () => new Date(Date.now() + later), admin: { authorize: () => true } }, async (shop) => {
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
        // Sent again once more and unanswered: the last refusal is still what the admin sees.
        refundsBy(() => ({ action: 'down' }))
        await expect(shop.backend.refund(order.id, click)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
        later = 16 * 60_000
        expect(await openModificationsListed(shop)).toEqual([
          expect.objectContaining({ requestId: 'click-R1-0001', lastRefusal: 'SIGNATURE_STALE' }),
        ])
        refundsBy(() => ({ action: 'forward' }))
        expect(await shop.backend.refund(order.id, click)).toMatchObject({ state: 'received', requestId: 'click-R1-0001' })
        expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
        expect(await openModificationsListed(shop)).toEqual([])
      })
    })

    it('called again plainly, its resend refused once, the refund is not asked for under a new key: one refund', async () => {
      await onOneShop(open, {}, async (shop) => {
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
      })
    })

    it('refused on its first send before the service read its key (401), no other send made, it ends refused: nothing moved', async () => {
      await onOneShop(open, {}, async (shop) => {
        const { order, payment } = await t.capturedOrder(shop)
        const click = { amount: tenEuros, requestId: 'click-R6-0001' }
        refundsBy(() => ({ action: 'refuse' }))
        const refused = { code: 'MODIFICATION_REFUSED', details: { serviceCode: 'SIGNATURE_STALE', requestId: click.requestId } }
        await expect(shop.backend.refund(order.id, click)).rejects.toMatchObject(refused)
        expect(await refundRows(shop, order.id)).toEqual(['refused'])
        // Its repeat is the same 409, never sent again; a plain call is a request of its own.
        refundsBy(() => ({ action: 'forward' }))
        await expect(shop.backend.refund(order.id, click)).rejects.toMatchObject(refused)
        expect(t.world.sandboxModifications(payment, 'refund')).toBe(0)
        expect(await shop.backend.refund(order.id, { amount: tenEuros })).toMatchObject({ state: 'received' })
        expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
      })
    })

    it('one the service itself refuses when sent again (422), its first send never arrived, ends refused: plain calls go on', async () => {
      await onOneShop(open, {}, async (shop) => {
        const { order, payment } = await t.capturedOrder(shop)
        const click = { amount: tenEuros, requestId: 'click-R3-0001' }
        t.failing('down', '/refunds')
        await expect(shop.backend.refund(order.id, click)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
        t.world.proxy.mode = 'pass'
        // Meanwhile all of it was refunded by another click: nothing is left for the first one.
        await shop.backend.refund(order.id, { amount: { currency: 'EUR', value: 2800 }, requestId: 'click-R3-all1' })
        const refused = { code: 'MODIFICATION_REFUSED', details: { serviceCode: 'REFUND_NOT_ALLOWED', requestId: click.requestId } }
        await expect(shop.backend.refund(order.id, click)).rejects.toMatchObject(refused)
        expect(await refundRows(shop, order.id)).toEqual(['refused', 'received'])
        // Its repeat is told the same, 409 again, not a 200 saying "refused".
        await expect(shop.backend.refund(order.id, click)).rejects.toMatchObject(refused)
        // A plain call is judged on its own (sent, and refused for itself), not held behind the refused one.
        await expect(shop.backend.refund(order.id, { amount: tenEuros })).rejects.toMatchObject({ code: 'MODIFICATION_REFUSED' })
        expect(await refundRows(shop, order.id)).toEqual(['refused', 'received', 'refused'])
        expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
      })
    })

    it('a click split over two instances, both refused by the service (422), ends refused for both: nothing moves', async () => {
      await onTwoCaptured(open, async (a, b, { order, payment }) => {
        // All of it refunded by another click, not in the feed yet: the ledger lets the next one go, the service refuses it.
        await a.backend.refund(order.id, { amount: { currency: 'EUR', value: 2800 }, requestId: 'click-R4-all1' })
        const click = { amount: tenEuros, requestId: 'click-R4-0001' }
        const { release, arrived } = holdNextRefund({ action: 'forward' })
        const first = a.backend.refund(order.id, click).catch((error: unknown) => error)
        await arrived()
        // The other half moves the row on and is refused first; the first send's refusal comes after it.
        const refused = { code: 'MODIFICATION_REFUSED', details: { serviceCode: 'REFUND_NOT_ALLOWED' } }
        await expect(b.backend.refund(order.id, click)).rejects.toMatchObject(refused)
        release()
        expect(await first).toMatchObject(refused)
        expect(await refundRows(a, order.id)).toEqual(['received', 'refused'])
        await expect(a.backend.refund(order.id, click)).rejects.toMatchObject({ ...refused, details: { requestId: 'click-R4-0001' } })
        expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
      })
    })

    it('the instance whose first send the service took answers received, though another refused its repeat meanwhile', async () => {
      await onTwoCaptured(open, async (a, b, { order, payment }) => {
        const click = { amount: tenEuros, requestId: 'click-R2-0001' }
        const { release, arrived } = holdNextRefund({ action: 'refuse' })
        const first = a.backend.refund(order.id, click).catch((error: unknown) => error)
        await arrived()
        // The repeat lands on the other instance, whose clock the service finds stale.
        await expect(b.backend.refund(order.id, click)).rejects.toMatchObject({ code: 'OUTCOME_PENDING' })
        release()
        expect(await first).toMatchObject({ state: 'received', requestId: 'click-R2-0001' })
        expect(await refundRows(a, order.id)).toEqual(['received'])
        expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
      })
    })
  })

  describe.skipIf(skip)(`a capture, refund or cancel whose key the service says names another request (${name})`, () => {
    it('stays open, never refused, and /problems lists it with that code: nothing is sent under a new key', async () => {
      let later = 0
      await onOneShop(open, { now: () => new Date(Date.now() + later), admin: { authorize: () => true } }, async (shop) => {
        const { order, payment } = await t.capturedOrder(shop)
        const click = { amount: tenEuros, requestId: 'click-R5-0001' }
        refundsBy(() => ({ action: 'refuse', refusal: { status: 422, errorCode: 'IDEMPOTENCY_KEY_REUSED' } }))
        await expect(shop.backend.refund(order.id, click)).rejects.toMatchObject({
          code: 'OUTCOME_PENDING',
          details: { requestId: 'click-R5-0001' },
        })
        // A plain refund after it settles the open one first, under its key: still refused the same way.
        await expect(shop.backend.refund(order.id, { amount: tenEuros })).rejects.toMatchObject({ code: 'OUTCOME_PENDING' })
        expect(await refundRows(shop, order.id)).toEqual(['requested'])
        later = 16 * 60_000
        expect(await openModificationsListed(shop)).toEqual([
          expect.objectContaining({ requestId: 'click-R5-0001', lastRefusal: 'IDEMPOTENCY_KEY_REUSED' }),
        ])
        expect(t.world.sandboxModifications(payment, 'refund')).toBe(0)
      })
    })
  })
}

/**
 * An open capture, refund or cancel dismissed by an operator through the admin route, against the
 * real sandbox: never sent again; its requestId, and a plain call asking the same (it may be its
 * retry), answered as dismissed; its amount and lines still counted as asked.
 */
import { describe, expect, it } from 'vitest'
import { createServiceClient } from '@card-jwe/service-client'
import { dismissWorld, EUR } from './support/dismiss-world.js'
import { modificationWorld } from './support/modification-world.js'
import { startShop } from './support/shop.js'

const t = modificationWorld()
const { operator, refundsOf, refundLeftOpen, dismiss, dismissLater } = dismissWorld(t)

const backOffice = () => createServiceClient({ baseUrl: t.world.sandbox.baseUrl, credentials: t.world.sandbox.readyMadeShop })

describe('an open capture, refund or cancel dismissed by an operator', () => {
  it('a refund left open and done in the back office, dismissed, is never sent: a plain refund after sends only its own', async () => {
    const shop = await startShop(t.world, operator)
    try {
      const { order, payment } = await t.capturedOrder(shop)
      const open = await refundLeftOpen(shop, String(order.id), 1000)
      // The merchant refunds the 10.00 in the service's back office, under a key of its own.
      await backOffice().refund(payment, EUR(1000), { idempotencyKey: 'back-office-refund-1' })
      await shop.backend.poller.pollNow()
      const dismissed = await dismissLater(shop, open.id)
      expect(dismissed).toEqual({
        status: 200,
        body: { requestId: open.id, orderId: String(order.id), kind: 'refund', dismissedAt: expect.any(String) },
      })
      // The next refund is its own 5.00 alone: the open 10.00 is not settled first, so not sent twice.
      expect(await shop.backend.refund(order.id, { amount: EUR(500) })).toMatchObject({ state: 'received', amount: EUR(500) })
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(2)
      expect(t.world.proxy.keysForwarded('POST', '/refunds')).not.toContain(open.idempotencyKey)
      // Its requestId repeated: told it was dismissed, nothing sent.
      await expect(shop.backend.refund(order.id, { requestId: open.id })).rejects.toMatchObject({
        code: 'MODIFICATION_DISMISSED',
        details: { requestId: open.id },
      })
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(2)
      // "The rest" leaves out the dismissed 10.00 and the 5.00: 13.00.
      await shop.backend.poller.pollNow()
      expect(await shop.backend.refund(order.id)).toMatchObject({ state: 'received', amount: EUR(1300) })
      // The order view keeps it, dismissed.
      const view = await shop.backend.fetch(new Request(`http://shop.test/api/admin/orders/${order.id}`))
      expect((await view.json()).modifications).toContainEqual(expect.objectContaining({ requestId: open.id, state: 'dismissed' }))
    } finally {
      await shop.close()
    }
  })

  it('a plain retry of a refund dismissed after its answer was lost is refused, never sent under a new key: one refund', async () => {
    const shop = await startShop(t.world, operator)
    try {
      const { order, payment } = await t.capturedOrder(shop)
      const open = await refundLeftOpen(shop, String(order.id), 500, 'lose-answers')
      // The operator sees a 5.00 refund in the back office (this very one) and dismisses the open request.
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
      expect((await dismissLater(shop, open.id)).status).toBe(200)
      // The shop's retry of the same plain call: it may be that request, so nothing goes.
      await expect(shop.backend.refund(order.id, { amount: EUR(500) })).rejects.toMatchObject({
        code: 'MODIFICATION_DISMISSED',
        details: { requestId: open.id },
      })
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
      // A new refund of the same amount is a new action: its own requestId sends it.
      expect(await shop.backend.refund(order.id, { amount: EUR(500), requestId: 'second-refund-1' })).toMatchObject({ state: 'received' })
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(2)
    } finally {
      await shop.close()
    }
  })

  it('a capture and a cancel left open, dismissed, are never sent: a second dismiss is 404, a plain cancel refused', async () => {
    const shop = await startShop(t.world, operator)
    try {
      const captured = await t.paidOrder(shop)
      t.failing('down', '/captures')
      await expect(shop.backend.capture(captured.order.id, { amount: EUR(1000) })).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      const [capture] = await shop.ledger.listModifications((await shop.ledger.listAttempts(String(captured.order.id)))[0]!.id)
      t.failing('down', '/cancels')
      const cancelled = await t.paidOrder(shop)
      await expect(shop.backend.cancel(cancelled.order.id)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      const [cancel] = await shop.ledger.listModifications((await shop.ledger.listAttempts(String(cancelled.order.id)))[0]!.id)
      t.world.proxy.mode = 'pass'
      for (const open of [capture!, cancel!]) {
        expect(await dismissLater(shop, open.id)).toMatchObject({ status: 200, body: { kind: open.kind } })
        expect(await dismiss(shop, open.id)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } })
      }
      // "Capture the rest" asks for what the dismissed 10.00 left: it may have been taken in the back office.
      expect(await shop.backend.capture(captured.order.id)).toMatchObject({ state: 'received', amount: EUR(1800) })
      expect(t.world.proxy.keysForwarded('POST', '/captures')).not.toContain(capture!.idempotencyKey)
      // Every cancel asks the same: a plain one may be the dismissed one's retry; one with its own requestId goes.
      await expect(shop.backend.cancel(cancelled.order.id)).rejects.toMatchObject({ code: 'MODIFICATION_DISMISSED' })
      expect(t.world.sandboxModifications(cancelled.payment, 'cancel')).toBe(0)
      expect(await shop.backend.cancel(cancelled.order.id, { requestId: 'cancel-after-dismiss' })).toMatchObject({ state: 'received' })
      expect(t.world.sandboxModifications(cancelled.payment, 'cancel')).toBe(1)
      expect(t.world.sandboxModifications(captured.payment, 'capture')).toBe(1)
    } finally {
      await shop.close()
    }
  })

  it('a refund whose key names another request at the service, dismissed, lets plain refunds go on: one each', async () => {
    const shop = await startShop(t.world, operator)
    try {
      const { order, payment } = await t.capturedOrder(shop)
      const open = await refundLeftOpen(shop, String(order.id), 1000)
      await backOffice().refund(payment, EUR(500), { idempotencyKey: open.idempotencyKey })
      // Blocked for good until a person looks: every plain refund settles that one first.
      await expect(shop.backend.refund(order.id, { amount: EUR(300) })).rejects.toMatchObject({ code: 'OUTCOME_PENDING' })
      expect((await dismissLater(shop, open.id)).status).toBe(200)
      expect(await shop.backend.refund(order.id, { amount: EUR(300) })).toMatchObject({ state: 'received', amount: EUR(300) })
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(2)
      expect((await refundsOf(shop, String(order.id))).map((m) => [m.state, m.errorCode])).toEqual([
        ['dismissed', 'IDEMPOTENCY_KEY_REUSED'],
        ['received', undefined],
      ])
    } finally {
      await shop.close()
    }
  })

  it('only an open request is dismissed: a received one, an unknown id and a malformed one are 404, nothing changed', async () => {
    const shop = await startShop(t.world, operator)
    try {
      const { order } = await t.capturedOrder(shop)
      const received = await shop.backend.refund(order.id, { amount: EUR(500) })
      for (const id of [received.requestId, 'no-such-request-1', 'bad%20id'])
        expect(await dismiss(shop, id)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } })
      expect((await refundsOf(shop, String(order.id))).map((m) => m.state)).toEqual(['received'])
      // A body with fields is refused before anything is read or written.
      const open = await refundLeftOpen(shop, String(order.id), 700)
      expect(await shop.post(`/api/admin/modifications/${open.id}/dismiss`, { force: true })).toMatchObject({ status: 400 })
      expect((await refundsOf(shop, String(order.id))).map((m) => m.state)).toEqual(['received', 'requested'])
    } finally {
      await shop.close()
    }
  })

  it('a plain "refund the rest" retried after its dismissal is refused, before and after the feed shows it: one refund', async () => {
    const shop = await startShop(t.world, operator)
    try {
      const { order, payment } = await t.capturedOrder(shop)
      t.failing('lose-answers', '/refunds')
      await expect(shop.backend.refund(order.id)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      t.world.proxy.mode = 'pass'
      const [open] = await refundsOf(shop, String(order.id))
      expect((await dismissLater(shop, open!.id)).status).toBe(200)
      await expect(shop.backend.refund(order.id)).rejects.toMatchObject({ code: 'MODIFICATION_DISMISSED' })
      await shop.backend.poller.pollNow()
      expect((await shop.ledger.listAttempts(String(order.id)))[0]).toMatchObject({ state: 'refunded' })
      await expect(shop.backend.refund(order.id)).rejects.toMatchObject({ code: 'MODIFICATION_DISMISSED' })
      expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
    } finally {
      await shop.close()
    }
  })

  it('a refund by line dismissed still counts its lines as given back: its lines again refused, a line left goes', async () => {
    const shop = await startShop(t.world, operator)
    try {
      const lines = [
        { id: 'tea', description: 'Green tea', quantity: 2, amountIncludingTax: 700, amountExcludingTax: 642, taxAmount: 58 },
        { id: 'mug', description: 'Mug', quantity: 1, amountIncludingTax: 1400, amountExcludingTax: 1157, taxAmount: 243 },
      ]
      const order = { ...shop.createOrder(2800), lineItems: lines }
      shop.orders.set(String(order.id), order)
      expect((await shop.post('/api/payments', await shop.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
      await shop.backend.capture(order.id)
      await shop.backend.poller.pollNow()
      t.failing('down', '/refunds')
      const teaAndMug = [
        { id: 'tea', quantity: 1 },
        { id: 'mug', quantity: 1 },
      ]
      await expect(shop.backend.refund(order.id, { lineItems: teaAndMug })).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
      t.world.proxy.mode = 'pass'
      const [open] = await refundsOf(shop, String(order.id))
      expect((await dismissLater(shop, open!.id)).status).toBe(200)
      const sent = t.world.proxy.counted('POST', '/refunds')
      // The same lines in another order: it may be its retry.
      await expect(shop.backend.refund(order.id, { lineItems: [...teaAndMug].reverse() })).rejects.toMatchObject({
        code: 'MODIFICATION_DISMISSED',
      })
      // Whether the back office gave them back is not the ledger's to know: never refunded twice by line.
      await expect(shop.backend.refund(order.id, { lineItems: [{ id: 'mug', quantity: 1 }] })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        details: [{ path: 'lineItems.0.quantity' }],
      })
      expect(t.world.proxy.counted('POST', '/refunds')).toBe(sent)
      expect(await shop.backend.refund(order.id, { lineItems: [{ id: 'tea', quantity: 1 }] })).toMatchObject({ amount: EUR(700) })
      expect(t.world.proxy.counted('POST', '/refunds')).toBe(sent + 1)
    } finally {
      await shop.close()
    }
  })
})

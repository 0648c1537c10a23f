/**
 * An open capture, refund or cancel dismissed by an operator through the admin route, against the
 * real sandbox: never sent again; its requestId, and a plain call asking the same (it may be its
 * retry), answered as dismissed; its amount and lines still counted as asked; refused while a send
 * of it may still be out, on any instance.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { createServiceClient } from '@card-jwe/service-client'
import { SEND_MAY_BE_OUT_MS } from '../src/ledger/dismiss-modification.js'
import { instanceLedgers, onTwoInstances } from './support/instance-ledgers.js'
import { modificationWorld } from './support/modification-world.js'
import { startShop, type TestShop } from './support/shop.js'
import type { LedgerStore } from '../src/store/ledger-store.js'

const t = modificationWorld()
const ledgers = instanceLedgers(t, 'dismissed')
const EUR = (value: number) => ({ currency: 'EUR', value })

/** The shops' clock, moved on by a test past the time a send may still be out. */
let aheadMs = 0
beforeEach(() => {
  aheadMs = 0
})
const operator = { admin: { authorize: () => true }, now: () => new Date(Date.now() + aheadMs) }

/** The order's refunds as the ledger holds them. */
async function refundsOf(shop: TestShop, orderId: string) {
  const [attempt] = await shop.ledger.listAttempts(orderId)
  return (await shop.ledger.listModifications(attempt!.id)).filter((m) => m.kind === 'refund')
}

/** A refund of `value` left open under its key: the service never got it (`down`), or took it and its answer was lost. */
async function refundLeftOpen(shop: TestShop, orderId: string, value: number, mode: 'down' | 'lose-answers' = 'down') {
  t.failing(mode, '/refunds')
  await expect(shop.backend.refund(orderId, { amount: EUR(value) })).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
  t.world.proxy.mode = 'pass'
  const open = (await refundsOf(shop, orderId)).find((m) => m.state === 'requested')
  expect(open).toMatchObject({ amount: EUR(value) })
  return open!
}

const dismiss = (shop: TestShop, requestId: string) => shop.post(`/api/admin/modifications/${requestId}/dismiss`, {})

/** The operator's dismiss once no send of the request can still be out: the shops' clock a while on. */
function dismissLater(shop: TestShop, requestId: string) {
  aheadMs += SEND_MAY_BE_OUT_MS
  return dismiss(shop, requestId)
}

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

  it("a dismiss within a minute of the request's send is 503 and changes nothing; a minute after, it is dismissed", async () => {
    const shop = await startShop(t.world, operator)
    try {
      const { order } = await t.capturedOrder(shop)
      const open = await refundLeftOpen(shop, String(order.id), 1000)
      const soon = await dismiss(shop, open.id)
      expect(soon).toEqual({
        status: 503,
        body: expect.objectContaining({
          error: 'OUTCOME_PENDING',
          details: { requestId: open.id, sentAt: open.createdAt, dismissableFrom: expect.any(String) },
        }),
      })
      const from = Date.parse((soon.body as { details: { dismissableFrom: string } }).details.dismissableFrom)
      expect(from - Date.parse(open.createdAt)).toBe(SEND_MAY_BE_OUT_MS)
      expect(await refundsOf(shop, String(order.id))).toEqual([open])
      aheadMs = from - Date.now() - 1_000
      expect((await dismiss(shop, open.id)).status).toBe(503)
      aheadMs = from - Date.now()
      expect((await dismiss(shop, open.id)).status).toBe(200)
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
      aheadMs += SEND_MAY_BE_OUT_MS
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

for (const { name, skip, open: openLedger } of ledgers) {
  describe.skipIf(skip)(`an open refund dismissed while another instance sends it again (${name})`, () => {
    it.each([
      ['forward', 'stores what the service took: received, and nothing is left to dismiss'],
      ['lose', 'loses its answer: the row stays open until a minute after that send, then is dismissed'],
    ] as const)('the dismiss waits for a send out (%s), which %s; one refund', async (action, _outcome) => {
      let release = () => {}
      await onTwoInstances(openLedger, { both: operator }, async (first, second) => {
        const { order, payment } = await t.capturedOrder(first)
        const open = await refundLeftOpen(first, String(order.id), 1000)
        // Its first send long past: only the send again below can hold the dismiss back.
        aheadMs += SEND_MAY_BE_OUT_MS
        const held = new Promise<void>((resolve) => (release = resolve))
        t.world.proxy.rule = (method, path) =>
          method === 'POST' && path.endsWith('/refunds') ? { action, holdUntil: held } : { action: 'forward' }
        const before = t.world.proxy.started('POST', '/refunds')
        const retry = first.backend.refund(order.id, { amount: EUR(1000) }).catch((error: unknown) => error)
        await expect.poll(() => t.world.proxy.started('POST', '/refunds')).toBe(before + 1)
        const [sentAgain] = await refundsOf(second, String(order.id))
        expect(sentAgain).toMatchObject({ state: 'requested', sentAgainAt: expect.any(String) })
        expect(await dismiss(second, open.id)).toMatchObject({
          status: 503,
          body: { error: 'OUTCOME_PENDING', details: { requestId: open.id, sentAt: sentAgain!.sentAgainAt } },
        })
        release()
        if (action === 'forward') {
          expect(await retry).toMatchObject({ requestId: open.id, state: 'received', amount: EUR(1000) })
          expect(await dismissLater(second, open.id)).toMatchObject({ status: 404 })
          expect((await refundsOf(first, String(order.id))).map((m) => m.state)).toEqual(['received'])
        } else {
          expect(await retry).toMatchObject({ code: 'SERVICE_UNREACHABLE' })
          t.world.proxy.rule = () => ({ action: 'forward' })
          expect((await refundsOf(first, String(order.id))).map((m) => m.state)).toEqual(['requested'])
          expect((await dismissLater(second, open.id)).status).toBe(200)
          await expect(second.backend.refund(order.id, { amount: EUR(1000) })).rejects.toMatchObject({ code: 'MODIFICATION_DISMISSED' })
        }
        expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
      }).finally(() => release())
    })

    it("a dismiss landing between a plain retry's read and its send: nothing sent, the retry refused", async () => {
      let gate: Promise<void> | undefined
      let reached = () => {}
      const atGate = new Promise<void>((resolve) => (reached = resolve))
      let openGate = () => {}
      // The first instance's store holds its first write of an open row (the send again moving its version on).
      const holdSendAgain = {
        wrapStore: (store: LedgerStore): LedgerStore => ({
          ...store,
          async updateModification(id, version, patch) {
            if (gate && patch.state === 'requested') {
              const waiting = gate
              gate = undefined
              reached()
              await waiting
            }
            return store.updateModification(id, version, patch)
          },
        }),
      }
      await onTwoInstances(openLedger, { both: operator, first: holdSendAgain }, async (first, second) => {
        const { order, payment } = await t.capturedOrder(first)
        const left = await refundLeftOpen(first, String(order.id), 1000)
        gate = new Promise<void>((resolve) => (openGate = resolve))
        const sent = t.world.proxy.started('POST', '/refunds')
        aheadMs += SEND_MAY_BE_OUT_MS
        const retry = first.backend.refund(order.id, { amount: EUR(1000) }).catch((error: unknown) => error)
        await atGate
        expect((await dismiss(second, left.id)).status).toBe(200)
        openGate()
        expect(await retry).toMatchObject({ code: 'MODIFICATION_DISMISSED', details: { requestId: left.id } })
        expect(t.world.proxy.started('POST', '/refunds')).toBe(sent)
        expect(t.world.sandboxModifications(payment, 'refund')).toBe(0)
      }).finally(() => openGate())
    })
  })
}

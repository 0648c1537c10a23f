/**
 * A dismiss of an open capture, refund or cancel while a send of it may be out, against the real
 * sandbox, on two instances over SQLite and over PostgreSQL: refused (503) within a minute of the
 * send's stamp; a send begins within seconds of its stamp or moves the row on again first, so none
 * begins after a dismiss.
 */
import { describe, expect, it } from 'vitest'
import { SEND_MAY_BE_OUT_MS } from '../src/ledger/send-window.js'
import type { LedgerStore } from '../src/store/ledger-store.js'
import { dismissWorld, EUR } from './support/dismiss-world.js'
import { instanceLedgers, onTwoInstances } from './support/instance-ledgers.js'
import { modificationWorld } from './support/modification-world.js'
import { patientClient, startShop } from './support/shop.js'

const t = modificationWorld()
const ledgers = instanceLedgers(t, 'dismiss_while_sending')
const { clock, operator, refundsOf, refundLeftOpen, dismiss, dismissLater } = dismissWorld(t)

describe('a dismiss while a send may be out', () => {
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
      clock.aheadMs = from - Date.now() - 10_000
      expect((await dismiss(shop, open.id)).status).toBe(503)
      clock.aheadMs = from - Date.now()
      expect((await dismiss(shop, open.id)).status).toBe(200)
    } finally {
      await shop.close()
    }
  })
})

/** A gate the next store call after `arm()` waits at (`reached` then) until `open()`; calls after it pass. */
function oneTimeGate() {
  let armed: Promise<void> | undefined
  let open = () => {}
  let arrived = () => {}
  const reached = new Promise<void>((resolve) => (arrived = resolve))
  return {
    arm() {
      armed = new Promise<void>((resolve) => {
        open = resolve
      })
    },
    reached,
    open: () => open(),
    async pass() {
      const waiting = armed
      armed = undefined
      if (!waiting) return
      arrived()
      await waiting
    },
  }
}

/** The first instance stopped between storing a modification and calling the service (a paused process, a slow store). */
const stallAfterInsert = (stall: ReturnType<typeof oneTimeGate>) => ({
  wrapStore: (store: LedgerStore): LedgerStore => ({
    ...store,
    async insertModification(m) {
      const inserted = await store.insertModification(m)
      await stall.pass()
      return inserted
    },
  }),
})

for (const { name, skip, open: openLedger } of ledgers) {
  describe.skipIf(skip)(`an open refund dismissed while another instance sends it again (${name})`, () => {
    it.each([
      ['forward', 'stores what the service took: received, and nothing is left to dismiss'],
      ['lose', 'loses its answer: the row stays open until a minute after that send, then is dismissed'],
    ] as const)('the dismiss waits for a send out (%s), which %s; one refund', async (action, _outcome) => {
      let release = () => {}
      // Held while the test reads and dismisses, the first's send again must not time out if it is forwarded, and should if lost.
      const firstClient = action === 'forward' ? patientClient(t.world) : {}
      await onTwoInstances(openLedger, { both: operator, first: firstClient }, async (first, second) => {
        const { order, payment } = await t.capturedOrder(first)
        // Left open by the second instance (short deadlines: the service down is given up in seconds).
        const open = await refundLeftOpen(second, String(order.id), 1000)
        // Its first send long past: only the send again below can hold the dismiss back.
        clock.aheadMs += SEND_MAY_BE_OUT_MS
        const held = new Promise<void>((resolve) => (release = resolve))
        t.world.proxy.rule = (method, path) =>
          method === 'POST' && path.endsWith('/refunds') ? { action, holdUntil: held } : { action: 'forward' }
        const before = t.world.proxy.started('POST', '/refunds')
        const retry = first.backend.refund(order.id, { amount: EUR(1000) }).catch((error: unknown) => error)
        await expect.poll(() => t.world.proxy.started('POST', '/refunds')).toBeGreaterThan(before)
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
        // A lost send's tries may reach the sandbox after the client gave up: one refund all the same.
        await expect.poll(() => t.world.sandboxModifications(payment, 'refund')).toBe(1)
      }).finally(() => release())
    })

    it("a dismiss landing between a plain retry's read and its send: nothing sent, the retry refused", async () => {
      const gate = oneTimeGate()
      // The first instance's store holds its first write of an open row (the send again moving its version on).
      const holdSendAgain = {
        wrapStore: (store: LedgerStore): LedgerStore => ({
          ...store,
          async updateModification(id, version, patch) {
            if (patch.state === 'requested') await gate.pass()
            return store.updateModification(id, version, patch)
          },
        }),
      }
      await onTwoInstances(openLedger, { both: operator, first: holdSendAgain }, async (first, second) => {
        const { order, payment } = await t.capturedOrder(first)
        const left = await refundLeftOpen(first, String(order.id), 1000)
        gate.arm()
        const sent = t.world.proxy.started('POST', '/refunds')
        clock.aheadMs += SEND_MAY_BE_OUT_MS
        const retry = first.backend.refund(order.id, { amount: EUR(1000) }).catch((error: unknown) => error)
        await gate.reached
        expect((await dismiss(second, left.id)).status).toBe(200)
        gate.open()
        expect(await retry).toMatchObject({ code: 'MODIFICATION_DISMISSED', details: { requestId: left.id } })
        expect(t.world.proxy.started('POST', '/refunds')).toBe(sent)
        expect(t.world.sandboxModifications(payment, 'refund')).toBe(0)
      }).finally(() => gate.open())
    })

    it('a first send stalled a minute after its row was stored, dismissed meanwhile on another instance, is not sent', async () => {
      const stall = oneTimeGate()
      await onTwoInstances(openLedger, { both: operator, first: stallAfterInsert(stall) }, async (first, second) => {
        const { order, payment } = await t.capturedOrder(first)
        stall.arm()
        const sent = t.world.proxy.started('POST', '/refunds')
        const refund = first.backend.refund(order.id, { amount: EUR(1000) }).catch((error: unknown) => error)
        await stall.reached
        clock.aheadMs += SEND_MAY_BE_OUT_MS
        const [stored] = await refundsOf(second, String(order.id))
        expect((await dismiss(second, stored!.id)).status).toBe(200)
        stall.open()
        expect(await refund).toMatchObject({ code: 'MODIFICATION_DISMISSED', details: { requestId: stored!.id } })
        expect(t.world.proxy.started('POST', '/refunds')).toBe(sent)
        expect(t.world.sandboxModifications(payment, 'refund')).toBe(0)
        expect((await refundsOf(first, String(order.id))).map((m) => m.state)).toEqual(['dismissed'])
      }).finally(() => stall.open())
    })

    it('a first send stalled past its stamp while another instance sent it again is refused as a send again: it stays open', async () => {
      const stall = oneTimeGate()
      await onTwoInstances(openLedger, { both: operator, first: stallAfterInsert(stall) }, async (first, second) => {
        const { order, payment } = await t.capturedOrder(first)
        const click = { amount: EUR(1000), requestId: 'click-stalled-01' }
        stall.arm()
        const stalled = first.backend.refund(order.id, click).catch((error: unknown) => error)
        await stall.reached
        clock.aheadMs += 10_000
        // The merchant's retry on the other instance: sent, the service takes it, its answer is lost.
        t.failing('lose-answers', '/refunds')
        await expect(second.backend.refund(order.id, { requestId: click.requestId })).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
        await expect.poll(() => t.world.sandboxModifications(payment, 'refund')).toBe(1)
        // The stalled send goes on and is refused before the service reads its key (a clock the service finds off).
        t.world.proxy.mode = 'pass'
        t.world.proxy.rule = (method, path) =>
          method === 'POST' && path.endsWith('/refunds') ? { action: 'refuse' } : { action: 'forward' }
        stall.open()
        expect(await stalled).toMatchObject({ code: 'OUTCOME_PENDING', details: { requestId: click.requestId } })
        expect((await refundsOf(first, String(order.id))).map((m) => m.state)).toEqual(['requested'])
        // Sent again under its key: the refund the service took, never a second one.
        t.world.proxy.rule = () => ({ action: 'forward' })
        expect(await first.backend.refund(order.id, { requestId: click.requestId })).toMatchObject({ state: 'received' })
        expect(t.world.sandboxModifications(payment, 'refund')).toBe(1)
      }).finally(() => stall.open())
    })
  })
}

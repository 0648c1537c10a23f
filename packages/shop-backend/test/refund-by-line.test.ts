/**
 * Refunds by line against the real sandbox over loopback, on SQLite and on PostgreSQL: the lines
 * reach the service with their sum; a lost answer retried (plain, with a requestId, on another
 * instance) sends the same body under the same key; a line the payment did not send, more of a line
 * than is left, or an amount that is not the lines' sum is refused before anything is sent.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { LedgerStore, Money, RefundLine, ShopBackendOptions } from '../src/index.js'
import { type Ledger, onPostgres, onSqlite } from './support/ledgers.js'
import { postgres } from './support/postgres.js'
import { startShop, startWorld, type TestShop, type World } from './support/shop.js'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())
afterEach(() => {
  world.proxy.mode = 'pass'
  world.proxy.matches = () => true
})

const EUR = (value: number) => ({ currency: 'EUR', value })

/** Two teas at 7.00 and a mug at 14.00: 28.00. Two teas cost what one mug does. */
const LINES = [
  { id: 'tea', description: 'Green tea', quantity: 2, amountIncludingTax: 700, amountExcludingTax: 642, taxAmount: 58 },
  { id: 'mug', description: 'Mug', quantity: 1, amountIncludingTax: 1400, amountExcludingTax: 1157, taxAmount: 243 },
]

interface LineShop {
  readonly shop: TestShop
  readonly ledger: LedgerStore
  /** A new order with LINES, paid by card, captured whole, the capture shown by the feed: its pspReference. */
  captured(): Promise<{ orderId: string; psp: string }>
  close(): Promise<void>
}

async function lineShop(ledger: Ledger, overrides: Partial<Omit<ShopBackendOptions, 'secretKey'>> = {}): Promise<LineShop> {
  const { store, drop } = await ledger()
  const shop = await startShop(world, { ...(store ? { store } : {}), ...overrides })
  const reads = store ?? shop.store
  return {
    shop,
    ledger: reads,
    async captured() {
      const order = { ...shop.createOrder(2800), lineItems: LINES }
      shop.orders.set(String(order.id), order)
      expect((await shop.post('/api/payments', await shop.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
      await shop.backend.capture(order.id)
      await shop.backend.poller.pollNow()
      return { orderId: String(order.id), psp: (await reads.listAttempts(String(order.id)))[0]!.pspReference! }
    },
    async close() {
      await shop.close()
      await drop()
    },
  }
}

/** A test on a shop of its own with one order captured; the shop closed after. */
const withCaptured =
  (ledger: Ledger, run: (t: LineShop, order: { readonly orderId: string; readonly psp: string }) => Promise<void>) => async () => {
    const t = await lineShop(ledger)
    try {
      await run(t, await t.captured())
    } finally {
      await t.close()
    }
  }

/** What the sandbox keeps of the payment's lines: how many of each it has refunded. */
function refundedAtSandbox(psp: string): Record<string, number> {
  const [kept] = world.sandboxRows<{ line_items: string }>('SELECT line_items FROM payment_orders WHERE psp_reference = ?', psp)
  const lines = JSON.parse(kept!.line_items) as Array<{ id: string; refunded: number }>
  return Object.fromEntries(lines.map((l) => [l.id, l.refunded]))
}

/** The refunds that reached the sandbox for this payment: key and body as sent. */
const refundCalls = (psp: string) => world.proxy.callsForwarded('POST', `/payments/${psp}/refunds`)

const MUG = { id: 'mug', quantity: 1 }

/** A refund of `lineItems` (and `amount`) is refused as `refusal`, and no refund more reaches the sandbox. */
async function refusedUnsent(
  t: LineShop,
  orderId: string,
  psp: string,
  lineItems: RefundLine[],
  amount: Money | undefined,
  refusal: { readonly code: string; readonly message: string },
) {
  const sent = refundCalls(psp).length
  await expect(t.shop.backend.refund(orderId, { lineItems, ...(amount ? { amount } : {}) })).rejects.toMatchObject(refusal)
  expect(refundCalls(psp)).toHaveLength(sent)
}

function losingRefunds() {
  world.proxy.matches = (method, path) => method === 'POST' && path.endsWith('/refunds')
  world.proxy.mode = 'lose-answers'
}

const variants = [
  { name: 'SQLite', ledger: onSqlite, skip: false },
  { name: 'PostgreSQL', ledger: onPostgres('refund_lines'), skip: postgres.missing !== undefined },
]

for (const variant of variants) {
  describe.skipIf(variant.skip)(`refunds by line (${variant.name})`, () => {
    it(
      'a refund by line reaches the sandbox with those lines and their sum; the ledger keeps them',
      withCaptured(variant.ledger, async (t, { orderId, psp }) => {
        const first = await t.shop.backend.refund(orderId, { lineItems: [{ id: 'tea', quantity: 1 }] })
        expect(first).toMatchObject({ state: 'received', amount: EUR(700), lineItems: [{ id: 'tea', quantity: 1 }] })
        // A given amount that is the lines' sum is taken as well.
        const second = await t.shop.backend.refund(orderId, { amount: EUR(1400), lineItems: [{ id: 'mug', quantity: 1 }] })
        expect(second).toMatchObject({ state: 'received', amount: EUR(1400) })
        expect(refundCalls(psp).map((c) => JSON.parse(c.body))).toEqual([
          { amount: EUR(700), lineItems: [{ id: 'tea', quantity: 1 }] },
          { amount: EUR(1400), lineItems: [{ id: 'mug', quantity: 1 }] },
        ])
        expect(refundedAtSandbox(psp)).toEqual({ tea: 1, mug: 1 })
        expect((await t.ledger.listModifications(`${orderId}:1`)).filter((m) => m.kind === 'refund').map((m) => m.lineItems)).toEqual([
          [{ id: 'tea', quantity: 1 }],
          [{ id: 'mug', quantity: 1 }],
        ])
        await t.shop.backend.poller.pollNow()
        expect((await t.ledger.listAttempts(orderId))[0]).toMatchObject({ state: 'partially_refunded', refundedValue: 2100 })
      }),
    )

    it(
      'a refund by line whose answer was lost, called again plainly, goes again with the same lines under the same key',
      withCaptured(variant.ledger, async (t, { orderId, psp }) => {
        losingRefunds()
        const lost = await t.shop.backend.refund(orderId, { lineItems: [{ id: 'tea', quantity: 2 }] }).catch((e: unknown) => e)
        expect(lost).toMatchObject({ code: 'SERVICE_UNREACHABLE', details: { requestId: expect.any(String) } })
        world.proxy.mode = 'pass'
        const again = await t.shop.backend.refund(orderId, { lineItems: [{ id: 'tea', quantity: 2 }] })
        expect(again).toMatchObject({ state: 'received', requestId: (lost as { details: { requestId: string } }).details.requestId })
        const calls = refundCalls(psp)
        expect(calls.length).toBeGreaterThan(1)
        expect(new Set(calls.map((c) => c.key)).size).toBe(1)
        expect(new Set(calls.map((c) => c.body))).toEqual(
          new Set([JSON.stringify({ amount: EUR(1400), lineItems: [{ id: 'tea', quantity: 2 }] })]),
        )
        expect(world.sandboxModifications(psp, 'refund')).toBe(1)
        expect(refundedAtSandbox(psp)).toEqual({ tea: 2, mug: 0 })
      }),
    )

    it('a lost refund by line repeated with its requestId, here and on another instance, sends the same body under its key', async () => {
      const t = await lineShop(variant.ledger)
      // The other instance shares the ledger (PostgreSQL's database, or the SQLite file).
      const shared = variant.name === 'SQLite' ? { storePath: t.shop.storePath } : { store: t.ledger }
      const other = await startShop(world, { ...shared, secretKey: t.shop.secretKey })
      try {
        const { orderId, psp } = await t.captured()
        const click = { requestId: 'refund-line-click-1', lineItems: [{ id: 'mug', quantity: 1 }] }
        losingRefunds()
        await expect(t.shop.backend.refund(orderId, click)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
        await expect(other.backend.refund(orderId, click)).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
        world.proxy.mode = 'pass'
        const again = await other.backend.refund(orderId, click)
        expect(again).toMatchObject({ requestId: click.requestId, state: 'received', amount: EUR(1400), lineItems: click.lineItems })
        expect(await t.shop.backend.refund(orderId, click)).toEqual(again)
        // The same id naming other lines is another click: refused, nothing sent.
        const otherLines = { ...click, lineItems: [{ id: 'tea', quantity: 1 }] }
        await expect(t.shop.backend.refund(orderId, otherLines)).rejects.toMatchObject({ code: 'REQUEST_ID_REUSED' })
        const calls = refundCalls(psp)
        expect(calls.length).toBeGreaterThanOrEqual(3)
        expect(new Set(calls.map((c) => c.key)).size).toBe(1)
        expect(new Set(calls.map((c) => c.body)).size).toBe(1)
        expect(world.sandboxModifications(psp, 'refund')).toBe(1)
        expect(refundedAtSandbox(psp)).toEqual({ tea: 0, mug: 1 })
      } finally {
        await other.close()
        await t.close()
      }
    })

    it(
      'a plain refund of other lines for the same amount settles the lost one under its key, then is a refund of its own',
      withCaptured(variant.ledger, async (t, { orderId, psp }) => {
        losingRefunds()
        await expect(t.shop.backend.refund(orderId, { lineItems: [{ id: 'tea', quantity: 2 }] })).rejects.toMatchObject({
          code: 'SERVICE_UNREACHABLE',
        })
        world.proxy.mode = 'pass'
        // Two teas cost what the mug does: the same amount, other lines, so not a repeat of the teas.
        const mug = await t.shop.backend.refund(orderId, { lineItems: [{ id: 'mug', quantity: 1 }] })
        expect(mug).toMatchObject({ state: 'received', amount: EUR(1400), lineItems: [{ id: 'mug', quantity: 1 }] })
        expect(world.sandboxModifications(psp, 'refund')).toBe(2)
        expect(refundedAtSandbox(psp)).toEqual({ tea: 2, mug: 1 })
      }),
    )

    it(
      'refuses a line the payment did not send, naming lineItems.N.id; nothing is sent',
      withCaptured(variant.ledger, async (t, { orderId, psp }) => {
        await refusedUnsent(t, orderId, psp, [MUG, { id: 'teapot', quantity: 1 }], undefined, {
          code: 'INVALID_INPUT',
          message: 'lineItems.1.id: not a line of the order as its payment sent it',
        })
      }),
    )

    it(
      'refuses more of a line than is left after earlier refunds by line, naming lineItems.N.quantity; nothing is sent',
      withCaptured(variant.ledger, async (t, { orderId, psp }) => {
        await t.shop.backend.refund(orderId, { lineItems: [{ id: 'tea', quantity: 1 }] })
        await refusedUnsent(t, orderId, psp, [MUG, { id: 'tea', quantity: 2 }], undefined, {
          code: 'INVALID_INPUT',
          message: 'lineItems.1.quantity: not above what is left of the line after earlier refunds by line',
        })
        // What is left of it still goes.
        expect(await t.shop.backend.refund(orderId, { lineItems: [{ id: 'tea', quantity: 1 }] })).toMatchObject({ amount: EUR(700) })
      }),
    )

    it(
      "refuses an amount that is not the lines' sum with AMOUNT_NOT_ALLOWED naming amount; nothing is sent",
      withCaptured(variant.ledger, async (t, { orderId, psp }) => {
        await refusedUnsent(t, orderId, psp, [MUG], EUR(1000), {
          code: 'AMOUNT_NOT_ALLOWED',
          message: "amount: must be the lines' sum (quantity * amountIncludingTax), or left out",
        })
      }),
    )
  })
}

describe('refunds by line: what the call itself must say', () => {
  it('refuses lines on an order paid without them, a line named twice, a quantity of 0, and lines on a capture', async () => {
    const t = await lineShop(onSqlite)
    try {
      const plain = t.shop.createOrder(2800)
      await t.shop.post('/api/payments', await t.shop.cardSubmission(plain))
      await t.shop.backend.capture(plain.id)
      await t.shop.backend.poller.pollNow()
      await expect(t.shop.backend.refund(plain.id, { lineItems: [{ id: 'tea', quantity: 1 }] })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: 'lineItems: the payment was sent without lines to refund by',
      })
      const { orderId } = await t.captured()
      const twice = [
        { id: 'tea', quantity: 1 },
        { id: 'tea', quantity: 1 },
      ]
      await expect(t.shop.backend.refund(orderId, { lineItems: twice })).rejects.toMatchObject({
        message: 'lineItems.1.id: each line once',
      })
      await expect(t.shop.backend.refund(orderId, { lineItems: [{ id: 'tea', quantity: 0 }] })).rejects.toMatchObject({
        message: 'lineItems.0.quantity: a whole number from 1',
      })
      await expect(t.shop.backend.capture(orderId, { lineItems: [{ id: 'tea', quantity: 1 }] })).rejects.toThrow(
        /^lineItems: only a refund gives lines back, not a capture$/,
      )
    } finally {
      await t.close()
    }
  })
})

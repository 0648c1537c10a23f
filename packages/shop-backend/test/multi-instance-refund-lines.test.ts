/**
 * A refund by line double-clicked onto two shop instances at once, each a real `node` process
 * (test/multi-instance/shop-instance.mjs on the built package) with a proxy of its own to the
 * sandbox, the ledger shared: one PostgreSQL database, or one SQLite file.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { InstanceProcess } from './support/instances.js'
import type { ServiceProxy } from './support/service-proxy.js'
import { buildInstancePackage, payByCard, sharedLedgerInstances } from './support/shared-ledger-instances.js'
import { startWorld, type World } from './support/shop.js'

const instances = sharedLedgerInstances('line-refunds')

/** The order's lines paid through `a` and captured whole: its pspReference at the sandbox. */
async function paidAndCaptured(world: World, a: InstanceProcess, b: InstanceProcess, orderId: string): Promise<string> {
  await payByCard(world, a, orderId)
  expect((await a.post('/test/modify', { kind: 'capture', orderId })).status).toBe(200)
  // The feed shows the capture to whichever instance reads it.
  for (const instance of [a, b]) expect((await instance.post('/test/poll-now', {})).status).toBe(200)
  const rows = world.sandboxRows<{ psp_reference: string }>('SELECT psp_reference FROM payments WHERE reference = ?', `order-${orderId}`)
  return rows[0]!.psp_reference
}

/** Each refund's answer held back 400 ms, so the second instance decides while the first one's call is out. */
const refundsHeldBack: ServiceProxy['rule'] = (method, path) =>
  method === 'POST' && path.endsWith('/refunds') ? { action: 'forward', delayMs: 400 } : { action: 'forward' }

describe.each(instances.kinds)('a refund by line double-clicked onto two instances (real processes) on one %s ledger', (kind) => {
  // The instances run the built package.
  beforeAll(buildInstancePackage, 120_000)

  it.each([
    ['with no requestId', undefined],
    ["with the click's requestId", 'click-refund-mug'],
  ])('%s: one refund of the line at the sandbox, one key, both answered with it', async (_, requestId) => {
    const world = instances.keep(await startWorld())
    const shared = await instances.shared(kind)
    const a = await instances.startInstance('a', world, shared)
    const b = await instances.startInstance('b', world, shared)
    const orderId = `lines-${kind.toLowerCase()}-${requestId ?? 'plain'}`
    const psp = await paidAndCaptured(world, a, b, orderId)

    for (const instance of [a, b]) instance.proxy.rule = refundsHeldBack
    const click = { kind: 'refund', orderId, lineItems: [{ id: 'mug', quantity: 1 }], ...(requestId ? { requestId } : {}) }
    const [first, second] = await Promise.all([a.post('/test/modify', click), b.post('/test/modify', click)])

    expect(first!.status).toBe(200)
    expect(first!.body).toMatchObject({ kind: 'refund', amount: { currency: 'EUR', value: 1400 }, lineItems: [{ id: 'mug', quantity: 1 }] })
    expect(second).toEqual(first)
    // One key reached the sandbox for the refund, stored before the call and reused by the other instance.
    const keys = new Set([a, b].flatMap((instance) => instance.proxy.keysForwarded('POST', '/refunds')))
    expect(keys.size).toBe(1)
    expect(world.sandboxModifications(psp, 'refund')).toBe(1)
    const refunded = world.sandboxRows<{ total: number }>(
      "SELECT SUM(value) AS total FROM modifications WHERE payment_psp_reference = ? AND kind = 'refund'",
      psp,
    )
    expect(refunded[0]!.total).toBe(1400)
  })
})

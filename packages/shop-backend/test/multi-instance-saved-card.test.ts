/**
 * A charge without the shopper (a renewal through `chargeSavedCard`) taken by two shop instances at
 * once, each a real `node` process (test/multi-instance/shop-instance.mjs on the built package) with
 * a proxy of its own to the sandbox, the ledger shared: one PostgreSQL database, or one SQLite file.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { InstanceProcess } from './support/instances.js'
import type { ServiceProxy } from './support/service-proxy.js'
import { buildInstancePackage, payByCard, sharedLedgerInstances } from './support/shared-ledger-instances.js'
import { startWorld, type World } from './support/shop.js'

const instances = sharedLedgerInstances('renewals')

/** The subscriber's card saved the way a page saves it (a paid `sub...` order with storePaymentMethod); its id. */
async function savedCard(world: World, instance: InstanceProcess): Promise<string> {
  const card = await payByCard(world, instance, 'sub-first', { storePaymentMethod: true })
  const { body } = await instance.post('/test/saved-cards', { shopperReference: 'multi-instance-subscriber' })
  const cards = body as unknown as Array<{ id: string; lastFour: string }>
  return cards.find((c) => c.lastFour === card.number.slice(-4))!.id
}

/** Each payment answer held back 400 ms, so the second instance looks at the order while the first one's call is out. */
const heldBack: ServiceProxy['rule'] = (method, path) =>
  method === 'POST' && path.endsWith('/payments') ? { action: 'forward', delayMs: 400 } : { action: 'forward' }

describe.each(instances.kinds)('a renewal charged by two instances (real processes) on one %s ledger', (kind) => {
  // The instances run the built package.
  beforeAll(buildInstancePackage, 120_000)

  it('both take the same order attempt at once: one payment at the sandbox, one key, both answered with it', async () => {
    const world = instances.keep(await startWorld())
    const shared = await instances.shared(kind)
    const a = await instances.startInstance('a', world, shared)
    const b = await instances.startInstance('b', world, shared)
    const storedPaymentMethodId = await savedCard(world, a)

    const keysSent = () => new Set([a, b].flatMap((instance) => instance.proxy.keysForwarded('POST', '/payments')))
    const savingKeys = keysSent()
    for (const instance of [a, b]) instance.proxy.rule = heldBack
    const charge = { orderId: 'sub-renewal', storedPaymentMethodId, recurringProcessingModel: 'Subscription' }
    const answers = await Promise.all([a.post('/test/charge-saved-card', charge), b.post('/test/charge-saved-card', charge)])

    expect(answers).toEqual([
      { status: 200, body: { resultCode: 'Authorised' } },
      { status: 200, body: { resultCode: 'Authorised' } },
    ])
    // One key reached the sandbox for the renewal: the attempt's, stored before the call, reused by the other instance.
    expect([...keysSent()].filter((key) => !savingKeys.has(key))).toHaveLength(1)
    expect(world.sandboxRows<{ n: number }>('SELECT COUNT(*) AS n FROM payments WHERE reference = ?', 'order-sub-renewal')[0]!.n).toBe(1)
    expect(world.sandboxPaymentsFor('order-sub-renewal', 'Authorised')).toBe(1)
  })
})

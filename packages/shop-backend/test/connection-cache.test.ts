/**
 * The shop's id, secret and store id are read once and shared, not three reads and an unsealing per
 * request; a local change of them is used by the very next request.
 */
import { describe, expect, it } from 'vitest'
import { useWorld } from './support/shop.js'
import type { LedgerStore } from '../src/store/ledger-store.js'

const { world, shop } = useWorld()

/** The real SQLite store of a test shop, with its setting reads counted. */
function countingReads(store: LedgerStore): { store: LedgerStore; reads: () => number } {
  let reads = 0
  const counted = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver)
      if (name !== 'getSetting' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value
      return (id: string) => {
        reads++
        return value.call(target, id)
      }
    },
  })
  return { store: counted, reads: () => reads }
}

describe("the shop's connection settings", () => {
  it('eight concurrent payments read the settings once between them, and all are authorised', async () => {
    let counter: ReturnType<typeof countingReads> | undefined
    const s = await shop({
      wrapStore: (store: LedgerStore) => {
        counter = countingReads(store)
        return counter.store
      },
    })
    const orders = Array.from({ length: 8 }, () => s.createOrder())
    const submissions = await Promise.all(orders.map((order) => s.cardSubmission(order)))
    const before = counter!.reads()
    const answers = await Promise.all(submissions.map((submission) => s.post('/api/payments', submission)))
    expect(answers.map((a) => a.body.resultCode)).toEqual(Array(8).fill('Authorised'))
    // Three settings (shop id, secret, store id) for the whole burst, not three per payment.
    expect(counter!.reads() - before).toBeLessThanOrEqual(3)
  })

  it('a store chosen with useStore is used by the very next payment', async () => {
    const s = await shop()
    expect((await s.post('/api/payments', await s.cardSubmission(s.createOrder()))).body.resultCode).toBe('Authorised')
    await s.backend.useStore('not-a-store-of-this-shop')
    const refused = await s.post('/api/payments', await s.cardSubmission(s.createOrder()))
    expect(refused.status).toBeGreaterThanOrEqual(400)
    await s.backend.useStore(world().sandbox.readyMadeShop.storeId)
    expect((await s.post('/api/payments', await s.cardSubmission(s.createOrder()))).body.resultCode).toBe('Authorised')
  })
})

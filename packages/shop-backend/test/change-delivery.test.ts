import { describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import type { LedgerStore, OrderChange } from '../src/store/ledger-store.js'
import { useWorld } from './support/shop.js'

const { shop } = useWorld()

/** The store, with its outbox reads counted. */
function countingOutboxReads(reads: { count: number }) {
  return (store: LedgerStore): LedgerStore => ({
    ...store,
    dueOutbox(now, limit) {
      reads.count++
      return store.dueOutbox(now, limit)
    },
  })
}

/**
 * The store, where the poller's feed page writes the payment's authorisation first: the request's
 * compare-and-set then loses the race (the version moved on), and the change in the outbox is the
 * poller's, not the request's. PostgreSQL's statement groups answer the same when a group committed
 * and its answer was lost: sent again alone, it reads as a lost race.
 */
function feedWinsTheRace(store: LedgerStore): LedgerStore {
  let once = true
  return {
    ...store,
    async compareAndSet(id, expectedVersion, patch, change) {
      if (once && change?.state === 'authorised') {
        once = false
        // The poller's page (applyChangesAndCursor makes the same compare-and-set with the change).
        expect(await store.compareAndSet(id, expectedVersion, patch, change)).toBeDefined()
      }
      return store.compareAndSet(id, expectedVersion, patch, change)
    },
  }
}

describe("how a payment's change reaches the shop", () => {
  it('before the answer, and without reading the outbox: the compare-and-set said which change it queued', async () => {
    const reads = { count: 0 }
    const s = await shop({ wrapStore: countingOutboxReads(reads) })
    for (const order of [s.createOrder(), s.createOrder()]) {
      expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
      // Heard by the time the browser has its answer.
      expect(s.changes.filter((c) => c.orderId === order.id).map((c) => c.state)).toEqual(['authorised'])
    }
    expect(reads.count).toBe(0)
    await s.backend.deliverChanges()
    expect(await s.store.dueOutbox(new Date(Date.now() + 86_400_000).toISOString(), 10)).toEqual([])
  })

  it("a change behind an undelivered earlier one of its order waits for it: the shop hears the order's changes in order", async () => {
    let refusalFails = true
    const heard: string[] = []
    const s = await shop({
      onOrderChange: (change) => {
        if (refusalFails && change.state === 'refused') throw new Error('shop database busy')
        heard.push(`${change.attempt}:${change.state}`)
      },
      now: () => new Date(Date.now() + (refusalFails ? 0 : 3_600_000)),
    })
    const order = s.createOrder()
    const refused = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'refused' })
    expect((await s.post('/api/payments', await s.cardSubmission(order, refused))).body).toMatchObject({ resultCode: 'Refused' })
    // The refusal's delivery failed and waits for its next try; the second attempt's success must not overtake it.
    expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
    expect(heard).toEqual([])
    refusalFails = false // an hour later, past the backoff
    await s.backend.deliverChanges()
    expect(heard).toEqual(['1:refused', '2:authorised'])
  })

  it("the page's Authorised answer comes after the shop heard authorised, even when the poller's write won the race", async () => {
    const s = await shop({ wrapStore: feedWinsTheRace })
    const order = s.createOrder()
    expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
    expect(s.changes.filter((c) => c.orderId === order.id).map((c) => c.state)).toEqual(['authorised'])
  })

  it("a double click's second request, answered from the stored answer, still answers only after the shop heard it", async () => {
    const heard: OrderChange[] = []
    // The shop's handler writes to its own database: a few hundred milliseconds under load.
    const s = await shop({
      onOrderChange: async (change) => {
        await new Promise((resolve) => setTimeout(resolve, 300))
        heard.push(change)
      },
    })
    const order = s.createOrder()
    const submission = await s.cardSubmission(order)
    // What the shop had heard of the order when each answer reached the page.
    const heardAtAnswer: string[][] = []
    const post = async () => {
      const answer = await s.post('/api/payments', submission)
      heardAtAnswer.push(heard.filter((c) => c.orderId === order.id).map((c) => c.state))
      return answer.body
    }
    // The same submission twice (a double click): the second waits for the order's lock, then reads the stored answer.
    const [first, second] = await Promise.all([post(), post()])
    expect(first).toEqual({ resultCode: 'Authorised' })
    expect(second).toEqual({ resultCode: 'Authorised' })
    // Either page may be the one the shopper sees: each Authorised comes after the shop heard authorised.
    expect(heardAtAnswer).toEqual([['authorised'], ['authorised']])
  })
})

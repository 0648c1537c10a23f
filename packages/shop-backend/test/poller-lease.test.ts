import { describe, expect, it } from 'vitest'
import { POLLER_LEASE } from '../src/poller/create-poller.js'
import { useWorld } from './support/shop.js'

const { shop, world } = useWorld()

async function until(check: () => Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('the poller lease (two shops on one ledger file)', () => {
  it("a started poller holds the lease; another shop's poll reads nothing until it stops, then polls", async () => {
    const a = await shop()
    const b = await shop({ storePath: a.storePath, secretKey: a.secretKey })
    a.backend.poller.start({ intervalMs: 50, leaseMs: 60_000 })
    await until(
      async () => (await a.store.acquireLease(POLLER_LEASE, 'probe', 1, new Date().toISOString())).lease.holder === a.backend.poller.holder,
    )
    expect(await b.backend.poller.pollNow()).toEqual({ applied: 0, skipped: 0, problems: [], leaseHeldBy: a.backend.poller.holder })
    a.backend.poller.stop()
    // Given up on stop: the next poll anywhere takes it, and a poll outside a timer gives it back afterwards.
    await until(async () => (await b.backend.poller.pollNow()).leaseHeldBy === undefined)
    expect((await a.backend.poller.pollNow()).leaseHeldBy).toBeUndefined()
  })

  it('stop() resolves once the lease is given up: the instance started in its place polls at once', async () => {
    const a = await shop()
    a.backend.poller.start({ intervalMs: 50, leaseMs: 60_000 })
    await until(
      async () => (await a.store.acquireLease(POLLER_LEASE, 'probe', 1, new Date().toISOString())).lease.holder === a.backend.poller.holder,
    )
    await a.backend.poller.stop()
    const restarted = await shop({ storePath: a.storePath, secretKey: a.secretKey })
    expect((await restarted.backend.poller.pollNow()).leaseHeldBy).toBeUndefined()
  })

  it('each instance says in its log when the poller starts or stops polling there, and who holds the lease', async () => {
    const lines = { a: [] as string[], b: [] as string[] }
    const a = await shop({ log: (line) => lines.a.push(line) })
    const b = await shop({ storePath: a.storePath, secretKey: a.secretKey, log: (line) => lines.b.push(line) })
    const [holderA, holderB] = [a.backend.poller.holder, b.backend.poller.holder]
    const leaseLines = (of: string[]) => of.filter((line) => line.startsWith('poller '))
    a.backend.poller.start({ intervalMs: 20, leaseMs: 60_000 })
    await until(async () => leaseLines(lines.a).length > 0)
    b.backend.poller.start({ intervalMs: 20, leaseMs: 60_000 })
    await until(async () => leaseLines(lines.b).length > 0)
    // Many ticks later: still one line each (said when it changes, not at every tick).
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(leaseLines(lines.a)).toEqual([`poller ${holderA}: holds the lease ${POLLER_LEASE}; this instance polls`])
    expect(leaseLines(lines.b)).toEqual([`poller ${holderB}: the lease ${POLLER_LEASE} is held by ${holderA}; this instance waits`])
    a.backend.poller.stop()
    await until(async () => leaseLines(lines.b).length > 1)
    expect(leaseLines(lines.b)[1]).toBe(`poller ${holderB}: holds the lease ${POLLER_LEASE}; this instance polls`)
    // Stopped and started again: said again.
    b.backend.poller.stop()
    b.backend.poller.start({ intervalMs: 20, leaseMs: 60_000 })
    await until(async () => leaseLines(lines.b).length > 2)
    expect(leaseLines(lines.b)[2]).toBe(leaseLines(lines.b)[1])
    b.backend.poller.stop()
  })

  it('a poll whose lease another instance took meanwhile commits nothing (LEASE_LOST) and the cursor stays', async () => {
    const a = await shop()
    const order = a.createOrder()
    expect((await a.post('/api/payments', await a.cardSubmission(order))).status).toBe(200)
    const cursor = await a.store.readCursor()
    // The feed answers slowly enough for the lease to be taken over between a's read and its commit.
    const store = a.store
    const apply = store.applyChangesAndCursor.bind(store)
    store.applyChangesAndCursor = async (batch) => {
      const later = new Date(Date.now() + 120_000).toISOString()
      await store.acquireLease(POLLER_LEASE, 'another-instance', 60_000, later)
      return apply({ ...batch, ...(batch.lease ? { lease: { ...batch.lease, now: later } } : {}) })
    }
    expect(await a.backend.poller.pollNow()).toMatchObject({ applied: 0, failed: 'LEASE_LOST' })
    expect(await store.readCursor()).toBe(cursor)
  })

  it('a feed slower than the interval: a tick adds no poll while its last is queued or running, so stop() waits for one', async () => {
    const a = await shop()
    const forward = world().proxy.rule
    const feedReads = () => world().proxy.started('GET', '/updated-payments')
    world().proxy.rule = (_method, path) => ({ action: 'forward', ...(path.endsWith('/updated-payments') ? { delayMs: 250 } : {}) })
    try {
      const before = feedReads()
      a.backend.poller.start({ intervalMs: 20, leaseMs: 60_000 })
      await until(async () => feedReads() >= before + 3)
      const stopped = a.backend.poller.stop()
      const atStop = feedReads()
      await stopped
      // Ticks piled up behind each 250 ms read would each read the feed once more before the stop.
      expect(feedReads() - atStop).toBeLessThanOrEqual(1)
    } finally {
      world().proxy.rule = forward
    }
  })
})

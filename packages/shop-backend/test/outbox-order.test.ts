import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { changeOf } from '../src/lib/ledger.js'
import { createOutbox } from '../src/lib/outbox.js'
import { openSqliteStore, type SqliteStore } from '../src/sqlite/index.js'
import type { AttemptPatch, AttemptRecord, OrderChange } from '../src/store.js'
import { attempt } from './store-conformance.js'

const at = '2026-01-01T00:00:00.000Z'
const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function ledgerAt(): Promise<{ store: SqliteStore; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'outbox-order-'))
  const path = join(dir, 'ledger.sqlite')
  const store = openSqliteStore({ path })
  cleanups.push(async () => {
    await store.close()
    await rm(dir, { recursive: true, force: true })
  })
  return { store, path }
}
const ledger = async (): Promise<SqliteStore> => (await ledgerAt()).store

/** A compare-and-set that queues the move's change (as storeAnswer does). */
async function move(store: SqliteStore, a: AttemptRecord, patch: AttemptPatch) {
  return (await store.compareAndSet(a.id, a.version, patch, changeOf(a, patch)))!
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('until: timed out')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const farFuture = '2999-01-01T00:00:00.000Z'

describe("the outbox in one process: an order's changes in order, each handed over once", () => {
  it("a drain's read that a request's own delivery overtook does not deliver that change again after the order's newer one", async () => {
    const store = await ledger()
    let e = attempt('e', 1)
    let o = attempt('o', 1)
    await store.insertAttempt(e)
    await store.insertAttempt(o)

    const heard: string[] = []
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let slowStarted = false
    const outbox = createOutbox(
      store,
      async (c: OrderChange) => {
        // The shop's handler is slow for order e (its own database, an e-mail): the drain waits here.
        if (c.orderId === 'e') {
          slowStarted = true
          await gate
        }
        heard.push(`${c.orderId}:${c.state}@${c.version}`)
      },
      () => new Date(),
      () => {},
    )

    // Order e's change, queued by a path that does not tell the outbox (the poller's feed page).
    e = await move(store, e, { state: 'authorised', updatedAt: at })
    // A request for order o stores its answer: the outbox is told of its change (first in line).
    const pending = await move(store, o, { state: 'pending', updatedAt: at })
    expect(pending.queued?.behindEarlier).toBe(false)
    o = pending

    // The poller's drain runs now: it reads [e's change, o's pending] and waits on e's slow handler.
    const draining = outbox.drain()
    await until(() => slowStarted)

    // The request goes on: it hands its own change to the shop at once, and the mark commits.
    const firstTicket = outbox.ticket()
    firstTicket.queued(pending.queued)
    const first = firstTicket.deliver()
    await until(() => heard.includes('o:pending@2'))
    const pendingId = pending.queued!.entry.id
    await until(async () => !(await store.dueOutbox(farFuture, 100)).some((x) => x.id === pendingId))

    // The order's next change (payment-details, or a second request): first in line, heard at once.
    const authorised = await move(store, o, { state: 'authorised', updatedAt: at })
    expect(authorised.queued?.behindEarlier).toBe(false)
    const secondTicket = outbox.ticket()
    secondTicket.queued(authorised.queued)
    const second = secondTicket.deliver()
    await until(() => heard.includes('o:authorised@3'))
    expect(heard.filter((h) => h.startsWith('o:'))).toEqual(['o:pending@2', 'o:authorised@3'])

    // The slow handler returns; the drain goes on with what it read before.
    release()
    await Promise.all([draining, first, second])
    // One instance must deliver an order's changes in order: the old "pending" must not come after "authorised".
    expect(heard.filter((h) => h.startsWith('o:'))).toEqual(['o:pending@2', 'o:authorised@3'])
  })

  it('a request whose change is behind an earlier one answers only after the shop heard it, whichever request drains first', async () => {
    const store = await ledger()
    let o = attempt('o', 1)
    const p = attempt('p', 1)
    await store.insertAttempt(o)
    await store.insertAttempt(p)

    const heard: string[] = []
    const outbox = createOutbox(
      store,
      (c: OrderChange) => void heard.push(`${c.orderId}:${c.state}`),
      () => new Date(),
      () => {},
    )
    // o's first change, queued by another instance on this ledger (or this instance's poller page), not delivered yet: due.
    o = await move(store, o, { state: 'pending', updatedAt: at })

    // Two requests' compare-and-sets commit together (one group commit), then each calls deliver().
    const [forO, forP] = await Promise.all([
      move(store, o, { state: 'authorised', updatedAt: at }),
      move(store, p, { state: 'authorised', updatedAt: at }),
    ])
    expect(forO.queued?.behindEarlier).toBe(true) // behind o's pending: deliverable, once the drain reads it
    expect(forP.queued?.behindEarlier).toBe(false)
    const [ticketO, ticketP] = [outbox.ticket(), outbox.ticket()]
    ticketO.queued(forO.queued)
    ticketP.queued(forP.queued)

    // p's request reaches deliver() first ...
    const pAnswered = ticketP.deliver()
    // ... then o's request: when this resolves, o's request answers the browser.
    await ticketO.deliver()
    // o's change was deliverable (its earlier change is due); the request must not answer before the shop heard it.
    expect(heard).toContain('o:authorised')
    await pAnswered
  })

  it("a change queued by a request that then threw is heard at once, not after the order's next change from another instance", async () => {
    const { store: storeA, path } = await ledgerAt()
    const storeB = openSqliteStore({ path })
    cleanups.push(() => storeB.close())
    const o1 = attempt('o', 1)
    let o2 = attempt('o', 2)
    const p = attempt('p', 1)
    for (const a of [o1, o2, p]) await storeA.insertAttempt(a)
    const heard: string[] = []
    const hears = (who: string) => (c: OrderChange) => void heard.push(`${who} ${c.orderId}#${c.attempt}:${c.state}`)
    const outboxA = createOutbox(
      storeA,
      hears('A'),
      () => new Date(),
      () => {},
    )
    const outboxB = createOutbox(
      storeB,
      hears('B'),
      () => new Date(),
      () => {},
    )

    // Instance A: a payment refused with a service error (submitPayment's refusal path): the 'error'
    // change is queued and told to the request's ticket, then the request throws.
    const refused = await move(storeA, o1, { state: 'error', updatedAt: at })
    outboxA.ticket().queued(refused.queued)
    // Instance B's poller drains it; the shopper's next attempt, on B, is authorised and heard.
    await outboxB.drain()
    o2 = await move(storeB, o2, { state: 'authorised', updatedAt: at })
    await outboxB.drain()
    expect(await storeA.dueOutbox(farFuture, 10)).toEqual([])
    // Any later request on A (another order) delivers: A still holds o's old change and hands it over again.
    const forP = await move(storeA, p, { state: 'authorised', updatedAt: at })
    const ticketP = outboxA.ticket()
    ticketP.queued(forP.queued)
    await ticketP.deliver()
    await outboxA.drain()
    // Heard once or twice (at least once), but never after the order's next change.
    const aboutO = heard.filter((h) => h.includes(' o#')).map((h) => h.slice(2))
    expect(aboutO.at(-1)).toBe('o#2:authorised')
    expect(aboutO.slice(0, -1).every((h) => h === 'o#1:error')).toBe(true)
  })
})

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { changeOf } from '../src/ledger/attempts.js'
import { createOutbox } from '../src/ledger/outbox.js'
import { openSqliteStore, type SqliteStore } from '../src/sqlite/index.js'
import type { AttemptPatch, AttemptRecord, LedgerStore, OrderChange } from '../src/store/ledger-store.js'
import { attempt } from './store-conformance.js'
import { gate } from './support/gate.js'

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

/** Two instances' stores on one new ledger file. */
async function twoInstances(): Promise<readonly [SqliteStore, SqliteStore]> {
  const { store, path } = await ledgerAt()
  const other = openSqliteStore({ path })
  cleanups.push(() => other.close())
  return [store, other]
}

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

/** The outbox on `store`, on the real clock, its log lines dropped unless `log` is given. */
const outboxOf = (store: LedgerStore, deliver: (change: OrderChange) => Promise<void> | void, log: (line: string) => void = () => {}) =>
  createOutbox(store, deliver, () => new Date(), log)

/** Resolves to 'settled' or, after `ms`, 'still waiting'. */
const within = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => 'settled'), new Promise((resolve) => setTimeout(() => resolve('still waiting'), ms))])

describe("the outbox in one process: an order's changes in order, each handed over once", () => {
  it('a request whose change is behind an earlier one answers only after the shop heard it, whichever request drains first', async () => {
    const store = await ledger()
    let o = attempt('o', 1)
    const p = attempt('p', 1)
    await store.insertAttempt(o)
    await store.insertAttempt(p)

    const heard: string[] = []
    const outbox = outboxOf(store, (c: OrderChange) => void heard.push(`${c.orderId}:${c.state}`))
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

  it("a request's ticket is its own: another request never delivers its change late, after the order's next change", async () => {
    const [storeA, storeB] = await twoInstances()
    const o1 = attempt('o', 1)
    let o2 = attempt('o', 2)
    const p = attempt('p', 1)
    for (const a of [o1, o2, p]) await storeA.insertAttempt(a)
    const heard: string[] = []
    const hears = (who: string) => (c: OrderChange) => void heard.push(`${who} ${c.orderId}#${c.attempt}:${c.state}`)
    const outboxA = outboxOf(storeA, hears('A'))
    const outboxB = outboxOf(storeB, hears('B'))

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

  it("a request's change waits its turn behind a drain in progress: the drain's late copy of an older change comes first", async () => {
    const [storeA, storeB] = await twoInstances()
    let p = attempt('p', 1)
    let o = attempt('o', 1)
    await storeA.insertAttempt(p)
    await storeA.insertAttempt(o)

    const heardA: string[] = []
    const handler = gate()
    let slowStarted = false
    const outboxA = outboxOf(storeA, async (c: OrderChange) => {
      // A's shop handler is slow for order p: A's drain waits here with the rest of its read.
      if (c.orderId === 'p') {
        slowStarted = true
        await handler.opened
      }
      heardA.push(`${c.orderId}:${c.state}@${c.version}`)
    })
    const outboxB = outboxOf(storeB, () => {})

    // The feed's page (poller, no ticket) queues p's and o's changes.
    p = await move(storeA, p, { state: 'authorised', updatedAt: at })
    o = await move(storeA, o, { state: 'pending', updatedAt: at })

    // Instance A's poller drains: it reads [p, o:pending] and waits on p's slow handler.
    const draining = outboxA.drain()
    await until(() => slowStarted)

    // Instance B's drain delivers both and marks them: the outbox is empty.
    await outboxB.drain()
    expect(await storeA.dueOutbox(farFuture, 10)).toEqual([])

    // A request on instance A stores o's authorisation: first in line in the outbox.
    const authorised = await move(storeA, o, { state: 'authorised', updatedAt: at })
    expect(authorised.queued?.behindEarlier).toBe(false)
    const ticket = outboxA.ticket()
    ticket.queued(authorised.queued)
    const answered = ticket.deliver()
    // It waits its turn behind the drain in progress: nothing of o heard by A yet.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(heardA.filter((h) => h.startsWith('o:'))).toEqual([])

    // p's handler returns: A's drain goes on with its read (a late copy of o's pending), then the request's turn.
    handler.open()
    await Promise.all([draining, answered])
    // One instance delivers an order's changes in order: A never hears o's old "pending" after "authorised".
    expect(heardA.filter((h) => h.startsWith('o:'))).toEqual(['o:pending@2', 'o:authorised@3'])
  })

  it('a log that throws while a delivered mark fails leaves no order waiting and no rejection unhandled', async () => {
    const real = await ledger()
    let failMark = true
    const store: LedgerStore = {
      ...real,
      async markDelivered(id) {
        if (failMark) {
          failMark = false
          throw new Error('connection reset')
        }
        return real.markDelivered(id)
      },
    }
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => void unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    cleanups.push(async () => void process.off('unhandledRejection', onUnhandled))

    let o = attempt('o', 1)
    await real.insertAttempt(o)
    const heard: string[] = []
    let logThrows = true
    const outbox = outboxOf(
      store,
      (c: OrderChange) => void heard.push(`${c.orderId}:${c.state}`),
      (line) => {
        // The shop's logger, its transport closed for a moment.
        if (logThrows) throw new Error(`logger closed: ${line}`)
      },
    )

    // A request's change: heard; its delivered mark fails and the log line about it throws.
    const pending = await move(real, o, { state: 'pending', updatedAt: at })
    o = pending
    const first = outbox.ticket()
    first.queued(pending.queued)
    await first.deliver()
    expect(heard).toEqual(['o:pending'])
    await new Promise((resolve) => setTimeout(resolve, 50))
    logThrows = false // the logger is back

    // The order's next change (behind the still-due pending): the request drains.
    const authorised = await move(real, o, { state: 'authorised', updatedAt: at })
    const second = outbox.ticket()
    second.queued(authorised.queued)
    const secondAnswered = within(second.deliver(), 2_000)
    const drained = within(outbox.drain(), 2_000)

    expect({ unhandled: unhandled.length, second: await secondAnswered, drain: await drained, heard }).toEqual({
      unhandled: 0,
      second: 'settled',
      drain: 'settled',
      heard: ['o:pending', 'o:pending', 'o:authorised'],
    })
  })

  it('a log that throws while a drain fails does not stop the later drains', async () => {
    const real = await ledger()
    let failRead = true
    const store: LedgerStore = {
      ...real,
      async dueOutbox(now, limit) {
        if (failRead) {
          failRead = false
          throw new Error('database is locked')
        }
        return real.dueOutbox(now, limit)
      },
    }
    let logThrows = true
    const heard: string[] = []
    const outbox = outboxOf(
      store,
      (c: OrderChange) => void heard.push(`${c.orderId}:${c.state}`),
      () => {
        if (logThrows) {
          logThrows = false // once
          throw new Error('logger closed')
        }
      },
    )
    // The first drain's read fails, and so does the log line about it.
    await outbox.drain().catch(() => {})
    // From now on the store and the logger work: a change queued without a ticket (the poller's page) ...
    const o = attempt('o', 1)
    await real.insertAttempt(o)
    await move(real, o, { state: 'authorised', updatedAt: at })
    // ... is delivered by the poller's next drains.
    await outbox.drain()
    await outbox.drain()
    expect(heard).toEqual(['o:authorised'])
  })

  it("a request's change a drain turn took first is not heard again from the request's turn, after the order moved on", async () => {
    const store = await ledger()
    const o = attempt('o', 1)
    await store.insertAttempt(o)
    const heard: string[] = []
    const outbox = outboxOf(store, (c: OrderChange) => void heard.push(`${c.state}@${c.version}`))

    // A details request stores the service's answer (storeAnswer): first in line, reported to its ticket.
    const authorised = await move(store, o, { state: 'authorised', updatedAt: at })
    expect(authorised.queued?.behindEarlier).toBe(false)
    const ticket = outbox.ticket()
    ticket.queued(authorised.queued)

    // While that request still releases its claim (releaseClaim: a read and a compare-and-set), this
    // process's poller drains (delivers and marks the authorisation), applies the feed's capture and drains again.
    await outbox.drain()
    await move(store, authorised, { state: 'captured', updatedAt: at })
    await outbox.drain()
    expect(heard).toEqual(['authorised@2', 'captured@3'])

    // The request reaches .finally(ticket.deliver).
    await ticket.deliver()
    await outbox.drain()
    // At least once is fine, but never an order's older change after its newer one.
    expect(heard.at(-1)).toBe('captured@3')
  })

  it("the same when the request's turn waits behind the drain that took its change and the order's next one", async () => {
    const store = await ledger()
    const o = attempt('o', 1)
    await store.insertAttempt(o)
    const heard: string[] = []
    const handler = gate()
    const outbox = outboxOf(store, async (c: OrderChange) => {
      heard.push(`${c.state}@${c.version}`)
      if (c.state === 'captured') await handler.opened // the shop's handler takes a moment
    })

    const authorised = await move(store, o, { state: 'authorised', updatedAt: at })
    expect(authorised.queued?.behindEarlier).toBe(false)
    const ticket = outbox.ticket()
    ticket.queued(authorised.queued)
    // The poller's page (no ticket) applies the capture, then drains: it reads both and delivers them in order.
    await move(store, authorised, { state: 'captured', updatedAt: at })
    const draining = outbox.drain()
    await until(() => heard.includes('captured@3')) // authorised's mark committed before captured was handed over

    // The details request now reaches deliver(): its turn waits behind the drain in progress.
    const answered = ticket.deliver()
    handler.open()
    await Promise.all([draining, answered])
    await outbox.drain()
    expect(heard.at(-1)).toBe('captured@3')
  })
})

import { errorCodeOf } from '../store/error-code.js'
import type { LedgerStore, OrderChange, OutboxEntry, QueuedChange } from '../store/ledger-store.js'
import { retryAt } from '../lib/backoff.js'
import type { Log } from '../telemetry/log.js'

/** One request's share of the outbox: the changes its compare-and-sets queued. */
export interface OutboxTicket {
  /**
   * A change this request's compare-and-set just committed, as the store reported it; `undefined`
   * when the store did not say, or when the compare-and-set meant to queue one and lost the race
   * (another writer queued it): {@link deliver} then drains.
   */
  queued(change: QueuedChange | undefined): void
  /**
   * Delivers this request's changes, after every delivery this process started before it (so a
   * repeated request never answers before the first one's change was heard), and resolves once
   * `onOrderChange` has returned for them, without waiting for the commits that mark them delivered
   * (those join a later group commit). Changes the store reported go straight to the shop with no
   * read of the outbox; the others are drained. Dying before a mark commits means the change is
   * delivered again: delivery is at least once either way.
   */
  deliver(): Promise<void>
}

/** The outbox's ways in: a ticket per request, {@link Outbox.drain} for everything committed. */
export interface Outbox {
  /** A ticket for one request; call its `deliver` before the request answers, thrown or not. */
  ticket(): OutboxTicket
  /** Delivers everything due in the store, and resolves only when every delivered change is marked so. */
  drain(): Promise<void>
}

/** What one turn of the outbox does: the changes requests reported, and whether to read the store. */
interface Step {
  readonly entries: OutboxEntry[]
  drain: boolean
  readonly done: Promise<void>
}

/**
 * Delivers queued order changes to the shop's `onOrderChange`, oldest first, after the commit that
 * queued them. A callback that throws is tried again later (backoff), and the changes after it for
 * the same order wait, so the shop hears an order's changes in order. Deliveries in this process go
 * one turn at a time (a drain, or the changes requests reported), so a turn never acts on a read
 * another turn made stale.
 */
export function createOutbox(
  store: LedgerStore,
  deliver: (change: OrderChange) => Promise<void> | void,
  now: () => Date,
  shopLog: Log,
): Outbox {
  // The outbox's promises must settle whatever the shop's log does.
  const log: Log = (line, level, fields) => {
    try {
      shopLog(line, level, fields)
    } catch {}
  }
  let chain: Promise<void> = Promise.resolve()
  /** Delivered, their "delivered" mark not committed yet: not delivered again by this process meanwhile. */
  const marking = new Map<number, Promise<void>>()
  /** Each order's newest mark in flight, true once committed: its next change waits for it. */
  const lastMark = new Map<string, Promise<boolean>>()
  /**
   * Reported by a request and not taken by a turn yet. A drain turn may take one first (the request
   * did I/O after its write); the request's turn then leaves it alone, else it would be heard again,
   * perhaps after the order's newer change.
   */
  const reported = new Set<number>()

  /**
   * Delivers `entries` in order; an order whose change fails or must wait is left for a later drain.
   * `onlyReported`: a request's turn, which delivers only what no earlier turn took.
   */
  async function handOver(entries: readonly OutboxEntry[], blocked: Set<string>, onlyReported: boolean): Promise<void> {
    for (const entry of entries) {
      const orderId = entry.change.orderId
      const untaken = reported.delete(entry.id)
      if ((onlyReported && !untaken) || blocked.has(orderId) || marking.has(entry.id)) continue
      // The order's earlier change must be marked first: if that mark failed, the earlier change is
      // due again and would reach the shop after this one, so this order waits for the next drain.
      const earlier = lastMark.get(orderId)
      if (earlier && !(await earlier)) {
        blocked.add(orderId)
        continue
      }
      try {
        await deliver(entry.change)
      } catch (error) {
        blocked.add(orderId)
        const code = String(errorCodeOf(error))
        log(`onOrderChange failed for order ${orderId} (${code}); tried again later`, 'warn', { component: 'outbox', code, orderId })
        await store.markDeliveryFailed(entry.id, retryAt(now(), entry.tries)).catch((failure: unknown) => {
          const failed = String(errorCodeOf(failure))
          log(`outbox: marking a delivery failed did not commit (${failed})`, 'error', { component: 'outbox', code: failed, orderId })
        })
        continue
      }
      // A mark that fails leaves the entry due: delivered again later (at least once).
      const mark = Promise.resolve()
        .then(() => store.markDelivered(entry.id))
        .then(
          () => true,
          (error: unknown) => {
            const code = String(errorCodeOf(error))
            log(`outbox: marking a change delivered failed (${code})`, 'error', { component: 'outbox', code, orderId })
            return false
          },
        )
      const settled = mark.then(() => {
        marking.delete(entry.id)
        if (lastMark.get(orderId) === mark) lastMark.delete(orderId)
      })
      marking.set(entry.id, settled)
      lastMark.set(orderId, mark)
    }
  }

  async function drainOnce(): Promise<void> {
    const blocked = new Set<string>()
    for (;;) {
      // Marks that commit while the query runs must still count: the query may have read before them.
      const markingBefore = new Set(marking.keys())
      const limit = 100 + marking.size
      const due = await store.dueOutbox(now().toISOString(), limit)
      const todo = due.filter((e) => !markingBefore.has(e.id) && !marking.has(e.id) && !blocked.has(e.change.orderId))
      if (todo.length === 0) return
      await handOver(todo, blocked, false)
      // All that was due fitted in one read: what was queued since is delivered by its writer's call.
      if (due.length < limit) return
    }
  }

  /**
   * The turn that has not started yet: later callers join it (it starts after their commits too).
   * A turn drains when any of its callers needs it; the reported changes are then in what it reads.
   */
  let next: Step | undefined
  function schedule(entries: readonly OutboxEntry[], drain: boolean): Promise<void> {
    if (!next) {
      const step: Step = {
        entries: [],
        drain: false,
        done: chain
          .then(() => {
            next = undefined
            if (!step.drain)
              return handOver(
                [...step.entries].sort((a, b) => a.id - b.id),
                new Set(),
                true,
              )
            // The drain reads them (they committed before it), or another instance delivered them.
            for (const entry of step.entries) reported.delete(entry.id)
            return drainOnce()
          })
          .catch((error: unknown) => {
            const code = String(errorCodeOf(error))
            log(`outbox delivery failed (${code})`, 'error', { component: 'outbox', code })
          }),
      }
      next = step
      chain = step.done
    }
    next.entries.push(...entries)
    next.drain ||= drain
    return next.done
  }

  return {
    ticket() {
      const own: OutboxEntry[] = []
      let drainNeeded = false
      return {
        queued(change) {
          if (change && !change.behindEarlier) {
            own.push(change.entry)
            reported.add(change.entry.id)
          } else drainNeeded = true
        },
        deliver: () => schedule(own.splice(0), drainNeeded),
      }
    },
    async drain() {
      await schedule([], true)
      await Promise.all(marking.values())
    },
  }
}

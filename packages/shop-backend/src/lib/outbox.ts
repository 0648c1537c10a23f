import type { LedgerStore, OrderChange, OutboxEntry, QueuedChange } from '../store.js'
import { retryAt } from './backoff.js'

/** One request's share of the outbox: the changes its compare-and-sets queued. */
export interface OutboxTicket {
  /**
   * A change this request's compare-and-set just committed, as the store reported it; `undefined`
   * when the store did not say, or when the compare-and-set meant to queue one and lost the race
   * (another writer queued it): {@link deliver} then drains.
   */
  queued(change: QueuedChange | undefined): void
  /**
   * Hands this request's changes to the shop (or drains, when one is behind an earlier change of
   * its order or was not reported) and resolves once `onOrderChange` has returned for them, without
   * waiting for the commits that mark them delivered (those join a later group commit). A payment's
   * answer therefore waits for no third commit and no read of the outbox. Dying before such a mark
   * commits means the change is delivered again: delivery is at least once either way.
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

const nameOf = (error: unknown): string => (error as Error | null)?.name ?? 'Error'

/**
 * Delivers queued order changes to the shop's `onOrderChange`, oldest first, after the commit that
 * queued them. A callback that throws is tried again later (backoff), and the changes after it for
 * the same order wait, so the shop hears an order's changes in order. One drain at a time in this
 * process; a request's own changes go straight to the shop beside it, in order per order, and no
 * entry is handed over twice by this process.
 */
export function createOutbox(
  store: LedgerStore,
  deliver: (change: OrderChange) => Promise<void> | void,
  now: () => Date,
  log: (line: string) => void,
): Outbox {
  let chain: Promise<void> = Promise.resolve()
  /** Handed over by this process, until its mark settles: whether the shop heard it, and when the mark settled. */
  const inHand = new Map<number, { readonly heard: Promise<boolean>; readonly settled: Promise<void> }>()
  /** Each order's newest entry in hand, true once delivered and marked: the order's next change waits for it. */
  const lastOfOrder = new Map<string, Promise<boolean>>()
  /** The running drain's: ids handed over since its read began (its read may hold them, delivered and gone since). */
  let handedSinceRead: Set<number> | undefined

  /**
   * Hands `entry` to the shop once its order's earlier change in hand is delivered and marked.
   * Resolves, once `onOrderChange` has returned, to whether the shop heard it: false when it threw
   * or had to wait (the entry stays due).
   */
  function handOver(entry: OutboxEntry): Promise<boolean> {
    const orderId = entry.change.orderId
    handedSinceRead?.add(entry.id)
    const earlier = lastOfOrder.get(orderId)
    let settle!: (marked: boolean) => void
    const marked = new Promise<boolean>((resolve) => {
      settle = resolve
    })
    lastOfOrder.set(orderId, marked)
    const heard = (async (): Promise<boolean> => {
      let ok = false
      try {
        // The order's earlier change must be marked first: if that mark failed, the earlier change is
        // due again and would reach the shop after this one, so this one waits for a later drain.
        if (earlier && !(await earlier)) return false
        try {
          await deliver(entry.change)
        } catch (error) {
          log(`onOrderChange failed for order ${orderId} (${nameOf(error)}); tried again later`)
          await store.markDeliveryFailed(entry.id, retryAt(now(), entry.tries))
          return false
        }
        ok = true
        // A mark that fails leaves the entry due: delivered again later (at least once).
        void Promise.resolve()
          .then(() => store.markDelivered(entry.id))
          .then(
            () => settle(true),
            (error: unknown) => {
              log(`outbox: marking a change delivered failed (${nameOf(error)})`)
              settle(false)
            },
          )
        return true
      } catch (error) {
        log(`outbox: marking a delivery failed did not commit (${nameOf(error)})`)
        return false
      } finally {
        // Whatever threw, the order's next change and drain() are never left waiting for this one.
        if (!ok) settle(false)
      }
    })()
    const settled = marked.then(() => {
      inHand.delete(entry.id)
      if (lastOfOrder.get(orderId) === marked) lastOfOrder.delete(orderId)
    })
    inHand.set(entry.id, { heard, settled })
    return heard
  }

  /** This process's delivery of `entry`: the one in hand (a drain's read took it first), else a new one. */
  const deliveryOf = (entry: OutboxEntry): Promise<boolean> => inHand.get(entry.id)?.heard ?? handOver(entry)

  async function drainOnce(): Promise<void> {
    const blocked = new Set<string>()
    try {
      for (;;) {
        // Entries handed over before the read and marked while it runs may still be in it; those
        // handed over after it began (a request's own) may be in it, delivered and gone: skip both.
        const inHandBefore = new Set(inHand.keys())
        const handed = new Set<number>()
        handedSinceRead = handed
        const limit = 100 + inHand.size
        const due = await store.dueOutbox(now().toISOString(), limit)
        const todo = due.filter((e) => !inHandBefore.has(e.id) && !blocked.has(e.change.orderId))
        if (todo.length === 0) return
        for (const entry of todo) {
          const orderId = entry.change.orderId
          if (blocked.has(orderId) || handed.has(entry.id)) continue
          if (!(await handOver(entry))) blocked.add(orderId)
        }
        // All that was due fitted in one read: what was queued since is delivered by its writer's call.
        if (due.length < limit) return
      }
    } finally {
      handedSinceRead = undefined
    }
  }
  /** The drain that has not started yet: later callers join it (it starts after their commits too). */
  let queuedDrain: Promise<void> | undefined
  const drainDue = (): Promise<void> => {
    if (queuedDrain) return queuedDrain
    const next = chain
      .then(() => {
        queuedDrain = undefined
        return drainOnce()
      })
      .catch((error: unknown) => log(`outbox drain failed (${nameOf(error)})`))
    queuedDrain = next
    chain = next
    return next
  }
  return {
    ticket() {
      const deliveries: Array<Promise<boolean>> = []
      let drainNeeded = false
      return {
        queued(change) {
          // Handed over now, committed as it is: a request that throws after this still has it heard,
          // and its order's later changes chain after it. A drain's read that holds it skips it.
          if (change && !change.behindEarlier) deliveries.push(deliveryOf(change.entry))
          else drainNeeded = true
        },
        async deliver() {
          if (drainNeeded) {
            drainNeeded = false
            await drainDue()
          }
          await Promise.all(deliveries.splice(0))
        },
      }
    },
    async drain() {
      await drainDue()
      await Promise.all([...inHand.values()].map((held) => held.settled))
    },
  }
}

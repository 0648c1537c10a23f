import type { LedgerStore, OrderChange, OutboxEntry, QueuedChange } from '../store.js'
import { retryAt } from './backoff.js'

/**
 * The outbox's ways in: {@link Outbox.queued} and {@link Outbox.deliver} for a request's path,
 * {@link Outbox.drain} for everything committed.
 */
export interface Outbox {
  /**
   * A change this process's compare-and-set just committed, as the store reported it: delivered by
   * the next {@link deliver} without reading the outbox, unless it is behind an earlier change of
   * its order. `undefined` (a store that does not report what it queued) makes that call drain.
   */
  queued(change: QueuedChange | undefined): void
  /**
   * Delivers the changes this process queued, or drains when one of them must wait its turn, and
   * resolves once `onOrderChange` has returned for them, without waiting for the commits that mark
   * them delivered (those join a later group commit). A payment's answer therefore waits for no
   * third commit and no read. Dying before such a mark commits means the change is delivered again:
   * delivery is at least once either way.
   */
  deliver(): Promise<void>
  /** Delivers everything due in the store, and resolves only when every delivered change is marked so. */
  drain(): Promise<void>
}

/**
 * Delivers queued order changes to the shop's `onOrderChange`, oldest first, after the commit that
 * queued them. A callback that throws is tried again later (backoff), and the changes after it for
 * the same order wait, so the shop hears an order's changes in order. One drain at a time in this
 * process; changes a request queued go straight to the shop beside it, in order per order.
 */
export function createOutbox(
  store: LedgerStore,
  deliver: (change: OrderChange) => Promise<void> | void,
  now: () => Date,
  log: (line: string) => void,
): Outbox {
  let chain: Promise<void> = Promise.resolve()
  /** Taken by a delivery in this process, until its mark settles: not delivered again by this process meanwhile. */
  const inHand = new Map<number, Promise<void>>()
  /** Each order's newest delivery in hand, true once delivered and marked: the order's next change waits for it. */
  const lastOfOrder = new Map<string, Promise<boolean>>()
  /** Deliveries in hand whose `onOrderChange` has not returned yet (a request's answer waits for them). */
  const reaching = new Set<Promise<unknown>>()
  /** Changes queued by this process and not taken yet; true once one of them had to wait or was not reported. */
  let fresh: OutboxEntry[] = []
  let drainNeeded = false

  /**
   * Takes `entry` and hands it to the shop once its order's earlier change in hand is delivered and
   * marked. Resolves to whether the shop heard it: false when it failed or had to wait (due again).
   */
  function handOver(entry: OutboxEntry): Promise<boolean> {
    const orderId = entry.change.orderId
    // A drain may take a change a request queued before that request delivers it: once is enough.
    if (fresh.length > 0) fresh = fresh.filter((e) => e.id !== entry.id)
    const earlier = lastOfOrder.get(orderId)
    let settle!: (marked: boolean) => void
    const marked = new Promise<boolean>((resolve) => {
      settle = resolve
    })
    lastOfOrder.set(orderId, marked)
    inHand.set(
      entry.id,
      marked.then(() => {
        inHand.delete(entry.id)
        if (lastOfOrder.get(orderId) === marked) lastOfOrder.delete(orderId)
      }),
    )
    const heard = (async (): Promise<boolean> => {
      // The order's earlier change must be marked first: if that mark failed, the earlier change is
      // due again and would reach the shop after this one, so this one waits for a later drain.
      if (earlier && !(await earlier)) {
        settle(false)
        return false
      }
      try {
        await deliver(entry.change)
      } catch (error) {
        log(`onOrderChange failed for order ${orderId} (${(error as Error)?.name ?? 'Error'}); tried again later`)
        await store.markDeliveryFailed(entry.id, retryAt(now(), entry.tries)).catch((failure: unknown) => {
          log(`outbox: marking a delivery failed did not commit (${(failure as Error)?.name ?? 'Error'})`)
        })
        settle(false)
        return false
      }
      // A mark that fails leaves the entry due: delivered again later (at least once).
      store.markDelivered(entry.id).then(
        () => settle(true),
        (error: unknown) => {
          log(`outbox: marking a change delivered failed (${(error as Error)?.name ?? 'Error'})`)
          settle(false)
        },
      )
      return true
    })()
    reaching.add(heard)
    void heard.finally(() => reaching.delete(heard))
    return heard
  }

  async function drainOnce(): Promise<void> {
    const blocked = new Set<string>()
    for (;;) {
      // Marks that commit while the query runs must still count: the query may have read before them.
      const inHandBefore = new Set(inHand.keys())
      const limit = 100 + inHand.size
      const due = await store.dueOutbox(now().toISOString(), limit)
      const todo = due.filter((e) => !inHandBefore.has(e.id) && !blocked.has(e.change.orderId))
      if (todo.length === 0) return
      for (const entry of todo) {
        const orderId = entry.change.orderId
        // Checked again here: a request may have taken it, or an earlier one of its order failed, meanwhile.
        if (blocked.has(orderId) || inHand.has(entry.id)) continue
        if (!(await handOver(entry))) blocked.add(orderId)
      }
      // All that was due fitted in one read: what was queued since is delivered by its writer's call.
      if (due.length < limit) return
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
      .catch((error: unknown) => log(`outbox drain failed (${(error as Error)?.name ?? 'Error'})`))
    queuedDrain = next
    chain = next
    return next
  }
  return {
    queued(change) {
      if (!change || change.behindEarlier) drainNeeded = true
      else fresh.push(change.entry)
    },
    async deliver() {
      const taken = fresh
      const drain = drainNeeded
      fresh = []
      drainNeeded = false
      // In the order queued; an order's later change waits for its earlier one inside handOver.
      for (const entry of taken) if (!inHand.has(entry.id)) void handOver(entry)
      if (drain) await drainDue()
      // Also those another request took: this request's change may be among them.
      await Promise.all([...reaching])
    },
    async drain() {
      await drainDue()
      await Promise.all(inHand.values())
    },
  }
}

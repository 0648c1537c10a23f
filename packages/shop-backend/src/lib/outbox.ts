import type { LedgerStore, OrderChange } from '../store.js'
import { retryAt } from './backoff.js'

/** The outbox's two ways in: {@link Outbox.deliver} for a request's path, {@link Outbox.drain} for everything committed. */
export interface Outbox {
  /**
   * Delivers the due changes to the shop and resolves once `onOrderChange` has returned for them,
   * without waiting for the commits that mark them delivered (those join the next group commit). A
   * payment's answer therefore waits for no third commit. Dying before such a mark commits means
   * the change is delivered again: delivery is at least once either way.
   */
  deliver(): Promise<void>
  /** As {@link deliver}, and resolves only when every delivered change is marked so in the store. */
  drain(): Promise<void>
}

/**
 * Delivers queued order changes to the shop's `onOrderChange`, oldest first, after the commit that
 * queued them. A callback that throws is tried again later (backoff), and the changes after it for
 * the same order wait, so the shop hears them in order. One drain at a time in this process.
 */
export function createOutbox(
  store: LedgerStore,
  deliver: (change: OrderChange) => Promise<void> | void,
  now: () => Date,
  log: (line: string) => void,
): Outbox {
  let chain: Promise<void> = Promise.resolve()
  /** Delivered, their "delivered" mark not committed yet: not delivered again by this process meanwhile. */
  const marking = new Map<number, Promise<void>>()
  /** Each order's newest mark in flight, true once committed: its next change waits for it. */
  const lastMark = new Map<string, Promise<boolean>>()
  async function drainOnce(): Promise<void> {
    const blocked = new Set<string>()
    for (;;) {
      // Marks that commit while the query runs must still count: the query may have read before them.
      const markingBefore = new Set(marking.keys())
      const limit = 100 + marking.size
      const due = await store.dueOutbox(now().toISOString(), limit)
      const todo = due.filter((e) => !markingBefore.has(e.id) && !marking.has(e.id) && !blocked.has(e.change.orderId))
      if (todo.length === 0) return
      for (const entry of todo) {
        const orderId = entry.change.orderId
        if (blocked.has(orderId)) continue
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
          log(`onOrderChange failed for order ${orderId} (${(error as Error)?.name ?? 'Error'}); tried again later`)
          await store.markDeliveryFailed(entry.id, retryAt(now(), entry.tries))
          continue
        }
        // A mark that fails leaves the entry due: delivered again later (at least once).
        const mark = store.markDelivered(entry.id).then(
          () => true,
          (error: unknown) => {
            log(`outbox: marking a change delivered failed (${(error as Error)?.name ?? 'Error'})`)
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
      // All that was due fitted in one read: what was queued since is delivered by its writer's call.
      if (due.length < limit) return
    }
  }
  /** The drain that has not started yet: later callers join it (it starts after their commits too). */
  let queued: Promise<void> | undefined
  const deliverDue = (): Promise<void> => {
    if (queued) return queued
    const next = chain
      .then(() => {
        queued = undefined
        return drainOnce()
      })
      .catch((error: unknown) => log(`outbox drain failed (${(error as Error)?.name ?? 'Error'})`))
    queued = next
    chain = next
    return next
  }
  return {
    deliver: deliverDue,
    async drain() {
      await deliverDue()
      await Promise.all(marking.values())
    },
  }
}

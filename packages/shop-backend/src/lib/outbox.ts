import type { OrderChange } from '../store.js'
import { retryAt } from './backoff.js'
import type { LedgerStore } from '../store.js'

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
) {
  let chain: Promise<void> = Promise.resolve()
  async function drainOnce(): Promise<void> {
    const blocked = new Set<string>()
    for (;;) {
      const due = await store.dueOutbox(now().toISOString(), 100)
      const todo = due.filter((e) => !blocked.has(e.change.orderId))
      if (todo.length === 0) return
      for (const entry of todo) {
        if (blocked.has(entry.change.orderId)) continue
        try {
          await deliver(entry.change)
          await store.markDelivered(entry.id)
        } catch (error) {
          blocked.add(entry.change.orderId)
          log(`onOrderChange failed for order ${entry.change.orderId} (${(error as Error)?.name ?? 'Error'}); tried again later`)
          await store.markDeliveryFailed(entry.id, retryAt(now(), entry.tries))
        }
      }
    }
  }
  return function drain(): Promise<void> {
    chain = chain.then(drainOnce).catch((error: unknown) => log(`outbox drain failed (${(error as Error)?.name ?? 'Error'})`))
    return chain
  }
}

/**
 * The package's sync thread held on purpose, so the syncs asked meanwhile wait in a known order.
 * Every hold a test made is released after it, so the next test's syncs run.
 */
import { afterEach } from 'vitest'
import { holdSyncThread } from '../../src/lib/sync-thread.js'
import type { HeldPool } from './thread-pool.js'

/** `holdSyncThread()`: the thread held (behind the syncs asked so far) until released, after each test at the latest. */
export function useSyncThreadHolds(): () => HeldPool {
  const inPlace: Array<() => void> = []
  afterEach(() => {
    for (const release of inPlace.splice(0)) release()
  })
  return () => {
    const held: Array<() => void> = []
    const queueHold = () => {
      const release = holdSyncThread()
      held.push(release)
      inPlace.push(release)
    }
    queueHold()
    return {
      queueHold,
      releaseOne: async () => held.shift()?.(),
      releaseAll: async () => {
        for (const release of held.splice(0)) release()
      },
    }
  }
}

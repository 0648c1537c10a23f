/**
 * The thread the WAL's syncs run on: one that dies fails only the syncs asked of it.
 */
import { once } from 'node:events'
import { closeSync, openSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { syncOnThread, syncThread } from '../src/lib/sync-thread.js'
import { useDatabases } from './support/databases.js'
import { within } from './support/thread-pool.js'

const { temporaryFolder } = useDatabases()

describe('the sync thread', () => {
  it('dies failing only the syncs asked of it: one asked of the next thread before it exited is made', async () => {
    const file = join(temporaryFolder('sync-thread-'), 'file')
    writeFileSync(file, 'x')
    const handle = openSync(file, 'r')
    try {
      const dying = syncThread()
      // Not shared memory: the thread throws at this message, and dies of it.
      dying.postMessage({ hold: 'not shared memory' })
      const lost = syncOnThread(handle)
      let asked: Promise<void> | undefined
      // Its 'error' comes before its 'exit': a sync asked between them goes to a new thread.
      dying.once('error', () => {
        asked = syncOnThread(handle)
      })
      await expect(lost).rejects.toThrow()
      await once(dying, 'exit')
      expect(syncThread()).not.toBe(dying)
      await expect(within(asked!)).resolves.toBeUndefined()
    } finally {
      closeSync(handle)
    }
  })
})

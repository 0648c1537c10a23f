/**
 * Group commit, so one request's disk wait does not stall every other: the writes queued in one turn
 * go to disk in one transaction, each caller learns of its write only once that transaction has
 * committed and its WAL is synced, and a write that fails is rolled back alone. A second connection
 * to the same file is the outside observer.
 */
import { describe, expect, it } from 'vitest'
import { createGroupCommit } from '../src/index.js'
import { useDatabases } from './support/databases.js'
import { useSyncThreadHolds } from './support/sync-thread-holds.js'
import { type HeldPool, poolHoldsFiles, useThreadPoolHolds, within } from './support/thread-pool.js'

const { databases, temporaryFolder } = useDatabases()

const holdThreadPool = useThreadPoolHolds()
const holdSyncThread = useSyncThreadHolds()

/**
 * A group that has counted a write of its own, then a row written on its connection outside it while
 * the sync thread is held: no sync can put that row on disk until it is released.
 */
async function rowWrittenOutside() {
  const { db, walPath } = databases()
  const group = createGroupCommit(db, { walPath })
  await group.writeOne(() => db.prepare('INSERT INTO items (key) VALUES (?)').run('inside'))
  const held = holdSyncThread()
  db.prepare('INSERT INTO items (key) VALUES (?)').run('outside')
  return { db, group, held }
}

/** `promise` has not settled while the sync thread is held (settled, the row might not be on disk); then it does. */
async function settlesOnlyOnceSynced<T>(promise: Promise<T>, held: HeldPool): Promise<T> {
  let settled = false
  const watched = promise.finally(() => {
    settled = true
  })
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(settled).toBe(false)
  void held.releaseOne()
  return within(watched)
}

describe('group commit', () => {
  it('commits the writes of one turn together, and settles each only after the commit', async () => {
    const { db, walPath, committed } = databases()
    const commit = createGroupCommit(db, { walPath }).write
    const seenOutside: number[] = []
    const settledAt: number[] = []
    const writes = Array.from({ length: 50 }, (_, i) =>
      commit(() => {
        db.prepare('INSERT INTO items (key) VALUES (?)').run(`k${i}`)
        seenOutside.push(committed())
        return i
      }).then((value) => {
        settledAt.push(committed())
        return value
      }),
    )
    expect(committed()).toBe(0) // nothing is written before the group runs
    expect(await Promise.all(writes)).toEqual(Array.from({ length: 50 }, (_, i) => i))
    // Inside the group no write was visible outside yet: one transaction for all fifty.
    expect(seenOutside).toEqual(Array(50).fill(0))
    // Every caller heard back only when all fifty were committed.
    expect(settledAt).toEqual(Array(50).fill(50))
  })

  it('rolls back a failing write alone and commits the rest of its group', async () => {
    const { db, walPath, committed } = databases()
    const commit = createGroupCommit(db, { walPath }).write
    const keys = (observer = db) =>
      (observer.prepare('SELECT key FROM items ORDER BY id').all() as Array<{ key: string }>).map((r) => r.key)
    const insert = (first: string, key: string) => () => {
      db.prepare('INSERT INTO items (key) VALUES (?)').run(first)
      db.prepare('INSERT INTO items (key) VALUES (?)').run(key)
    }
    const results = await Promise.allSettled([commit(insert('one', 'a')), commit(insert('two', 'a')), commit(insert('three', 'b'))])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' })
    // The failed write's first INSERT ("two") went with its savepoint; the others are on disk.
    expect(committed()).toBe(4)
    expect(keys()).toEqual(['one', 'a', 'three', 'b'])
  })

  // With io_uring the pool holds no file work, so the hold would not show where the sync runs.
  it.runIf(poolHoldsFiles)("acknowledges a write once on disk while libuv's pool is busy with other work", async () => {
    const { db, walPath, committed } = databases()
    const group = createGroupCommit(db, { walPath })
    // Every thread of the pool taken (as by card decryptions or zlib): a sync queued there waits for them.
    const pool = holdThreadPool(temporaryFolder('held-pool-'))
    const written = group.writeOne(() => db.prepare('INSERT INTO items (key) VALUES (?)').run('while busy'))
    await expect(within(written)).resolves.toMatchObject({ changes: 1 })
    expect(committed()).toBe(1)
    await pool.releaseAll()
    await group.close()
  })

  it('starts a new group for writes that arrive while one is committing', async () => {
    const { db, walPath, committed } = databases()
    const commit = createGroupCommit(db, { walPath }).write
    const first = commit(() => db.prepare('INSERT INTO items (key) VALUES (?)').run('x'))
    await first
    const later = commit(() => committed())
    expect(await later).toBe(1)
  })

  it('runs a read only once every commit made before it is on disk', async () => {
    const { db, walPath } = databases()
    const group = createGroupCommit(db, { walPath })
    const order: string[] = []
    const written = group.write(() => db.prepare('INSERT INTO items (key) VALUES (?)').run('r')).then(() => order.push('write'))
    await new Promise((resolve) => setImmediate(resolve)) // the group has committed; its sync is under way
    const read = group.read(() => order.push('read'))
    await Promise.all([written, read])
    expect(order).toEqual(['write', 'read'])
  })

  it('answers a read only once every commit it could see is on disk, newer ones included', async () => {
    const { db, walPath } = databases()
    const group = createGroupCommit(db, { walPath })
    const insert = (key: string) => () => db.prepare('INSERT INTO items (key) VALUES (?)').run(key)
    const events: string[] = []
    const held = holdSyncThread()
    const a = group.write(insert('a')).then(() => events.push('a on disk'))
    await new Promise((resolve) => setImmediate(resolve)) // a is committed; its sync waits for the thread
    const read = group.read(() => (db.prepare('SELECT key FROM items ORDER BY id').all() as Array<{ key: string }>).map((r) => r.key))
    const answered = read.then(() => events.push('read answered'))
    const b = group.write(insert('b')).then(() => events.push('b on disk'))
    await new Promise((resolve) => setImmediate(resolve)) // b is committed too; its sync queues behind a's
    // The thread back: a's sync runs, then b's, one after the other.
    void held.releaseOne()
    // The read ran after a's sync and saw b: its answer waits for b's sync as well.
    expect(await within(read)).toEqual(['a', 'b'])
    await within(Promise.all([a, b, answered]))
    expect(events).toEqual(['a on disk', 'b on disk', 'read answered'])
    await group.close()
  })

  it('answers a read of rows written outside the group only once they are on disk', async () => {
    const { db, group, held } = await rowWrittenOutside()
    const read = group.read(() => db.prepare('SELECT COUNT(*) AS n FROM items').get())
    expect(await settlesOnlyOnceSynced(read, held)).toEqual({ n: 2 })
    await group.close()
  })

  it('closes only once rows written outside the group are on disk', async () => {
    const { group, held } = await rowWrittenOutside()
    await expect(settlesOnlyOnceSynced(group.close(), held)).resolves.toBeUndefined()
  })

  it('closes after its connection was closed first', async () => {
    const { db, walPath } = databases()
    const group = createGroupCommit(db, { walPath })
    await group.writeOne(() => db.prepare('INSERT INTO items (key) VALUES (?)').run('inside'))
    db.close()
    await expect(group.close()).resolves.toBeUndefined()
  })

  it('refuses every call once closed, and writes nothing more', async () => {
    const { db, walPath, committed } = databases()
    const group = createGroupCommit(db, { walPath })
    await group.writeOne(() => db.prepare('INSERT INTO items (key) VALUES (?)').run('before'))
    await group.close()
    const refusals = await Promise.allSettled([
      group.writeOne(() => db.prepare('INSERT INTO items (key) VALUES (?)').run('after')),
      group.read(() => committed()),
      group.syncWritten(),
    ])
    expect(refusals.map((r) => r.status === 'rejected' && String(r.reason))).toEqual(Array(3).fill('TypeError: The group commit is closed'))
    expect(committed()).toBe(1)
  })

  it('settles every write of a group without a WAL path of its own, not only the first', async () => {
    const { db } = databases()
    db.pragma('synchronous = FULL') // the COMMIT waits for the disk itself: no sync of ours
    const group = createGroupCommit(db)
    const keys = ['one', 'two', 'three']
    // No later write comes to release them: each must settle with its own group's commit.
    const written = Promise.all(keys.map((key) => group.write(() => db.prepare('INSERT INTO items (key) VALUES (?)').run(key).changes)))
    const late = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000))
    expect(await Promise.race([written, late])).toEqual([1, 1, 1])
  })

  it('syncs writes made on the connection outside the group before syncWritten settles', async () => {
    const { db, walPath } = databases()
    db.prepare('INSERT INTO items (key) VALUES (?)').run('direct')
    await expect(createGroupCommit(db, { walPath }).syncWritten()).resolves.toBeUndefined()
    // The same with a WAL that cannot be synced (fdatasync of a character device: EINVAL): the caller
    // hears it, so nothing is acknowledged.
    db.prepare('INSERT INTO items (key) VALUES (?)').run('direct-2')
    const unsynced = createGroupCommit(db, { walPath: '/dev/null' })
    await expect(unsynced.syncWritten()).rejects.toMatchObject({ code: 'EINVAL' })
  })
})

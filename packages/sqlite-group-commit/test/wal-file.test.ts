/**
 * The WAL file the group commit syncs: found from SQLite's own path, opened once for each sync that
 * may run at once, and the group stopped for good when a sync of it fails or finds it replaced (Linux
 * reports a lost write-back once, so a later sync could succeed over lost rows).
 */
import { closeSync, openSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createGroupCommit, WalSyncFailedError, walPathOf } from '../src/index.js'
import { useDatabases } from './support/databases.js'
import { syncOnThread, syncThread } from '../src/lib/sync-thread.js'
import { useSyncThreadHolds } from './support/sync-thread-holds.js'

const { databases, temporaryFolder, open } = useDatabases()

/** Handles this process holds on `path`. */
const handlesOn = (path: string) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path
    } catch {
      return false // closed since the listing
    }
  }).length

/** The sync thread's holds, every one released after each test. */
const holdSyncThread = useSyncThreadHolds()
const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve))
}

describe('the WAL file', () => {
  it('will not start without its WAL file, and leaves no handle open', async () => {
    const { db } = databases()
    const missing = join(temporaryFolder('group-commit-missing-'), 'not-there', 'x-wal')
    const handles = () => readdirSync('/proc/self/fd').length
    // The process's sync thread has handles of its own: it is running, and has synced once, before they are counted.
    const file = join(temporaryFolder('group-commit-thread-'), 'file')
    writeFileSync(file, '')
    const handle = openSync(file, 'r')
    await syncOnThread(handle)
    closeSync(handle)
    const before = handles()
    expect(() => createGroupCommit(db, { walPath: missing })).toThrow(expect.objectContaining({ code: 'ENOENT' }))
    expect(handles()).toBe(before)
  })

  it('syncs the WAL through two open files of its own, closed with the group', async () => {
    const { db, walPath } = databases()
    const openOnWal = () => handlesOn(walPath)
    const before = openOnWal() // SQLite's own
    const group = createGroupCommit(db, { walPath })
    expect(openOnWal() - before).toBe(2)
    await group.writeOne(() => db.prepare('INSERT INTO items (key) VALUES (?)').run('one'))
    await group.close()
    expect(openOnWal()).toBe(before)
  })

  it('closes while a sync is in flight: waits for it, then closes its handles', async () => {
    const { db, walPath, committed } = databases()
    const group = createGroupCommit(db, { walPath })
    const thread = holdSyncThread()
    let written = false
    const writing = group
      .writeOne(() => db.prepare('INSERT INTO items (key) VALUES (?)').run('held'))
      .then(() => {
        written = true
      })
    await turns(3) // committed, its sync queued behind the held thread
    expect(committed()).toBe(1)
    const held = handlesOn(walPath) // SQLite's two connections' and the group's two
    let closed = false
    const closing = group.close().then(() => {
      closed = true
    })
    await turns(3)
    expect({ written, closed, handles: handlesOn(walPath) }).toEqual({ written: false, closed: false, handles: held })
    await thread.releaseAll()
    await Promise.all([writing, closing])
    expect(handlesOn(walPath)).toBe(held - 2)
  })

  it('closes with a sync queued behind one that fails: the handles are closed when the queued one ends', async () => {
    const { db } = databases()
    // Both syncs fail (fdatasync of a character device: EINVAL); the second is held while close() goes on.
    const group = createGroupCommit(db, { walPath: '/dev/null', log: () => {} })
    const thread = holdSyncThread()
    const onNull = () => handlesOn('/dev/null')
    const insert = (key: string) => () => db.prepare('INSERT INTO items (key) VALUES (?)').run(key)
    const first = group.writeOne(insert('first')).catch((error: unknown) => error)
    await turns(3)
    thread.queueHold() // the thread that runs the first sync stops here, before the second
    const second = group.writeOne(insert('second')).catch((error: unknown) => error)
    await turns(3) // two groups committed, two syncs queued
    const open = onNull()
    const closing = group.close()
    await thread.releaseOne() // the first sync runs and fails; the group stops
    expect(await first).toMatchObject({ code: 'EINVAL' })
    expect(await second).toMatchObject({ code: 'EINVAL' })
    await closing // close() is done; the second sync is still queued
    await turns(3)
    expect(onNull()).toBe(open)
    await thread.releaseAll()
    for (let turn = 0; turn < 100_000 && onNull() > open - 2; turn++) await turns(1)
    expect(onNull()).toBe(open - 2)
  })

  it('stops when its WAL file is replaced: a sync of the old one puts nothing on disk', async () => {
    const { db, walPath, committed } = databases()
    const group = createGroupCommit(db, { walPath })
    await group.writeOne(() => db.prepare('INSERT INTO items (key) VALUES (?)').run('before'))
    // Out of WAL mode and back: SQLite deletes the file and writes a new one.
    db.pragma('journal_mode = DELETE')
    db.pragma('journal_mode = WAL')
    await expect(group.writeOne(() => db.prepare('INSERT INTO items (key) VALUES (?)').run('after'))).rejects.toMatchObject({
      code: 'WAL_REPLACED',
    })
    await expect(group.syncWritten()).rejects.toMatchObject({ code: 'WAL_SYNC_FAILED', syncCode: 'WAL_REPLACED' })
    expect(committed()).toBe(2)
  })

  it("finds the WAL SQLite writes: beside a symlinked database's target, none in memory, misuse out of WAL mode", () => {
    const folder = temporaryFolder('group-commit-wal-path-')
    const target = join(folder, 'real.sqlite')
    symlinkSync(target, join(folder, 'link.sqlite'))
    const linked = open(join(folder, 'link.sqlite'))
    linked.pragma('journal_mode = WAL')
    linked.exec('CREATE TABLE t (x)')
    expect(walPathOf(linked)).toBe(`${target}-wal`)
    expect(readdirSync(folder).sort()).toEqual(['link.sqlite', 'real.sqlite', 'real.sqlite-shm', 'real.sqlite-wal'])
    const memory = open(':memory:')
    expect(walPathOf(memory)).toBeUndefined()
    const rollback = open(join(folder, 'rollback.sqlite'))
    expect(() => walPathOf(rollback)).toThrow(new TypeError('walPathOf: the database is in journal mode delete, not wal'))
  })

  it('stops for good after a failed fdatasync: nothing more is written, read or acknowledged', async () => {
    const { db, committed } = databases()
    const lines: string[] = []
    // fdatasync of a character device fails (EINVAL): a real failed sync, as EIO from a failing disk.
    const group = createGroupCommit(db, { walPath: '/dev/null', log: (line) => lines.push(line) })
    const insert = (key: string) => () => db.prepare('INSERT INTO items (key) VALUES (?)').run(key)
    await expect(group.writeOne(insert('secret-row'))).rejects.toMatchObject({ code: 'EINVAL' })
    expect(committed()).toBe(1) // committed, but the OS may have dropped it: its writer was told it failed
    const refusals = await Promise.allSettled([
      group.writeOne(insert('after')),
      group.write(insert('after-too')),
      group.read(() => committed()),
      group.syncWritten(),
    ])
    for (const refusal of refusals) {
      expect(refusal.status).toBe('rejected')
      const reason = (refusal as PromiseRejectedResult).reason
      expect(reason).toBeInstanceOf(WalSyncFailedError)
      expect(reason).toMatchObject({ code: 'WAL_SYNC_FAILED', syncCode: 'EINVAL' })
      expect(String(reason.message)).not.toContain('secret-row')
    }
    expect(committed()).toBe(1) // no later write reached the database
    expect(lines).toEqual(['sqlite store: syncing the WAL failed (EINVAL); the store is stopped: check the disk, then restart the machine'])
    await expect(group.close()).resolves.toBeUndefined()
  })

  it('stops when the sync thread dies under a sync; the next group gets a thread of its own', async () => {
    const { db, walPath } = databases()
    const group = createGroupCommit(db, { walPath, log: () => {} })
    holdSyncThread()
    const written = group.writeOne(() => db.prepare('INSERT INTO items (key) VALUES (?)').run('in flight'))
    await turns(3) // committed, its sync queued on the held thread
    await syncThread().terminate()
    // Whether the row reached the disk is not known: its writer is told it failed, and the group stops.
    await expect(written).rejects.toMatchObject({ code: 'SYNC_THREAD_EXITED' })
    await expect(group.writeOne(() => 1)).rejects.toMatchObject({ code: 'WAL_SYNC_FAILED', syncCode: 'SYNC_THREAD_EXITED' })
    await group.close()
    const next = databases()
    const again = createGroupCommit(next.db, { walPath: next.walPath })
    await expect(again.writeOne(() => next.db.prepare('INSERT INTO items (key) VALUES (?)').run('after'))).resolves.toMatchObject({
      changes: 1,
    })
    await again.close()
  })
})

import type Database from 'better-sqlite3'
import { closeSync, fstatSync } from 'node:fs'
import { codeOf } from './lib/code-of.js'
import { syncOnThread, syncThread } from './lib/sync-thread.js'
import { WalSyncFailedError } from './wal-sync-failed-error.js'
import type { GroupCommit, GroupCommitOptions } from './group-commit-types.js'
import { MAX_SYNCS_IN_FLIGHT, openWal } from './lib/wal-handles.js'

interface QueuedWrite {
  readonly write: () => unknown
  /** One statement: SQLite undoes a failed statement by itself, so it needs no savepoint of its own. */
  readonly single: boolean
  readonly resolve: (value: unknown) => void
  readonly reject: (error: unknown) => void
}

interface SyncWaiter {
  /** The commit (by number) that must be on disk first. */
  readonly commit: number
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
}

const refusedAfterClose = () => new TypeError('The group commit is closed')

/**
 * Group commit with the disk wait off the event loop. The writes that callers queue while the event
 * loop is busy go to disk together in one `BEGIN IMMEDIATE` transaction. Each write of several
 * statements is its own savepoint: one that throws (a lost lease) is rolled back and rejected alone;
 * the others commit. A one-statement write needs none (a failed statement is undone by SQLite).
 *
 * The connection runs synchronous=NORMAL, so the COMMIT writes the WAL (the OS has it: a killed
 * process loses nothing) without waiting for the disk. Then the WAL file is `fdatasync`ed on a
 * thread of the package's own (one for every group of the process), not libuv's pool, where a sync
 * would wait behind the process's other work (WebCrypto, zlib, DNS lookups). Only after it returns
 * does a caller's promise settle: nothing is acknowledged before its commit is on disk, as with
 * synchronous=FULL, whose fsync is the same WAL sync but blocks the event loop (better-sqlite3 is
 * synchronous). A sync covers every commit made before it started. A commit made while a sync runs
 * asks for another at once, queued on the thread behind it (up to MAX_SYNCS_IN_FLIGHT; beyond that
 * it waits for one to end). A read answers only once every commit it saw is on disk
 * (those made before it, those made while it waited, rows written outside the group), so nothing
 * read (and told to the page or the shop) can be lost on a power cut. A failed `fdatasync` stops
 * the group for good, as PostgreSQL stops: its rows stay committed and Linux reports a lost
 * write-back once, so a later sync could succeed over a WAL that lost them. The writers and readers
 * waiting then get the OS's error, and every call after it a {@link WalSyncFailedError}. The WAL is
 * opened once a sync slot, here: a file opened later would not hear of an error another handle saw
 * first, and two syncs on one open file can split an error between them. `close()` commits what is
 * queued and waits for the disk, rows written outside the group included.
 */
export function createGroupCommit(db: Database.Database, options: GroupCommitOptions = {}): GroupCommit {
  const { walPath } = options
  const log = options.log ?? (() => {})
  let queue: QueuedWrite[] = []
  let committed = 0
  /** Every commit up to this one is on disk. */
  let synced = 0
  /** The newest commit a sync in flight covers. */
  let covered = 0
  let inFlight = 0
  let waiters: SyncWaiter[] = []
  /** Set by a failed fdatasync: every call from then on is refused with it. */
  let stopped: WalSyncFailedError | undefined
  /** close() was called: no call is taken; what is queued or syncing still ends. */
  let closed = false
  /** close() has waited for the disk: no sync starts any more, and the last one to end closes the handles. */
  let released = false
  // Rows this connection has changed, through the group or not (SQLite's total_changes()).
  const changesOf = db.prepare('SELECT total_changes()').pluck()
  const totalChanges = () => changesOf.get() as number
  /** total_changes() when the last commit was counted: more since then were written outside the group. */
  let changesCounted = -1 // what was written before this group existed is not known to be on disk
  const savepoint = db.transaction((write: () => unknown) => write())
  const commitAll = db.transaction((items: readonly QueuedWrite[]) =>
    items.map((item): { ok: true; value: unknown } | { ok: false; error: unknown } => {
      try {
        return { ok: true, value: item.single ? item.write() : savepoint(item.write) }
      } catch (error) {
        // An I/O error can roll back the whole transaction: the writes after it would each commit on
        // their own, unsynced and reported as failed. The group fails as one instead.
        if (!db.inTransaction) throw error
        return { ok: false, error }
      }
    }),
  )
  // Started now, so the first write does not wait for it; before the handles, as it can throw.
  if (walPath !== undefined) syncThread()
  // The WAL's handles not in use by a sync: one a slot, each its own open file, kept until close().
  // Opened last: nothing after them can throw and leave them open.
  const idleHandles = walPath === undefined ? [] : openWal(walPath)
  const closeHandles = () => {
    for (const handle of idleHandles.splice(0)) {
      try {
        closeSync(handle)
      } catch {} // nothing waits on a handle no sync uses
    }
  }
  /** After a failed fdatasync: every waiter refused now, every later call by `stopped`. */
  function stop(error: unknown): void {
    if (stopped !== undefined) return
    stopped = new WalSyncFailedError(codeOf(error))
    const refused = waiters
    waiters = []
    for (const waiter of refused) waiter.reject(error)
    try {
      log(`sqlite store: syncing the WAL failed (${stopped.syncCode}); the store is stopped: check the disk, then restart the machine`)
    } catch {} // the group is stopped whatever the log does
  }
  /** Syncs the WAL on `handle` (none: nothing to sync), then settles the waiters of every commit up to `target`. */
  async function syncOnce(target: number, handle: number | undefined): Promise<void> {
    try {
      if (walPath !== undefined) {
        if (handle === undefined) throw Object.assign(new Error('no WAL handle left for a sync'), { code: 'NO_HANDLE' })
        await syncOnThread(handle)
        // Unlinked (the connection left WAL mode and came back, or someone deleted it): SQLite writes another file.
        if (fstatSync(handle).nlink === 0) throw Object.assign(new Error('the WAL file was replaced'), { code: 'WAL_REPLACED' })
      }
      synced = Math.max(synced, target)
      const due = waiters.filter((w) => w.commit <= target)
      waiters = waiters.filter((w) => w.commit > target)
      for (const waiter of due) waiter.resolve()
    } catch (error) {
      // The OS may have dropped the pages (EIO, ENOSPC) and will not say so again: no caller is told they are on disk.
      stop(error)
    } finally {
      if (handle !== undefined) idleHandles.push(handle)
      inFlight--
      if (released && inFlight === 0) closeHandles()
    }
    startSync()
  }
  /** Starts a sync if some commit is not covered by one in flight and fewer than the maximum run. */
  function startSync(): void {
    if (stopped !== undefined || covered >= committed || inFlight >= MAX_SYNCS_IN_FLIGHT) return
    covered = committed
    inFlight++
    void syncOnce(committed, idleHandles.pop())
  }
  function afterSync(commit: number, resolve: () => void, reject: (error: unknown) => void): void {
    if (stopped !== undefined) {
      reject(stopped)
      return
    }
    waiters.push({ commit, resolve, reject })
    startSync()
  }
  function flush(): void {
    const items = queue
    queue = []
    if (items.length === 0) return
    // Stopped while they waited for their group: none of them is committed.
    if (stopped !== undefined) {
      for (const item of items) item.reject(stopped)
      return
    }
    let results: ReturnType<typeof commitAll>
    try {
      results = commitAll.immediate(items)
    } catch (error) {
      // The commit itself failed (disk full, I/O error, busy past the timeout): none of the group is stored.
      for (const item of items) item.reject(error)
      try {
        log(`sqlite store: a group of ${items.length} write${items.length === 1 ? '' : 's'} failed (${codeOf(error)}); none is stored`)
      } catch {} // its writers are told whatever the log does
      return
    }
    const commit = ++committed
    changesCounted = totalChanges()
    const stored: Array<{ item: QueuedWrite; value: unknown }> = []
    for (const [i, result] of results.entries()) {
      if (result.ok) stored.push({ item: items[i]!, value: result.value })
      else items[i]!.reject(result.error)
    }
    // One waiter for the group: a sync that ends at once (no WAL path) must find all of it waiting.
    afterSync(
      commit,
      () => {
        for (const { item, value } of stored) item.resolve(value)
      },
      (error) => {
        for (const { item } of stored) item.reject(error)
      },
    )
  }
  /** `single`: `run` executes one statement (its reads aside), so it runs without a savepoint. */
  function write<T>(run: () => T, single = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (!db.open) return reject(new TypeError('The database connection is not open'))
      if (closed) return reject(refusedAfterClose())
      if (stopped !== undefined) return reject(stopped)
      // setImmediate: after this turn's I/O callbacks, so writes queued meanwhile join the group.
      if (queue.length === 0) setImmediate(flush)
      queue.push({ write: run, single, resolve: resolve as (value: unknown) => void, reject })
    })
  }
  /** A write of one statement. */
  const writeOne = <T>(run: () => T): Promise<T> => write(run, true)
  /** Settles once every commit made so far is on disk, written through the group or not. */
  function onDisk(): Promise<void> {
    // Rows written since the last counted commit are a commit of their own: a sync that starts after
    // this covers whatever the WAL holds now. None: wait only for the commits counted so far. Inside
    // a transaction they are not committed yet: the commit that ends it is counted (by the group's flush).
    // A closed connection writes nothing more: nothing to count.
    if (stopped !== undefined) return Promise.reject(stopped)
    if (db.open && !db.inTransaction) {
      const changes = totalChanges()
      if (changes !== changesCounted) {
        changesCounted = changes
        committed++
      }
    }
    if (synced >= committed) return Promise.resolve()
    const commit = committed
    return new Promise<void>((resolve, reject) => afterSync(commit, resolve, reject))
  }
  /**
   * Runs `run` once every commit made so far is on disk, and answers once every commit it could see
   * is: commits made while it waited are visible to it before their sync ends.
   */
  function read<T>(run: () => T): Promise<T> {
    if (closed) return Promise.reject(refusedAfterClose())
    return onDisk().then(() => {
      const value = run()
      return onDisk().then(() => value)
    })
  }
  let closing: Promise<void> | undefined
  async function closeOnce(): Promise<void> {
    closed = true
    flush()
    // A failed sync is logged and its waiters refused; closing goes on.
    await onDisk().catch(() => {})
    released = true
    if (inFlight === 0) closeHandles()
  }
  /**
   * Refuses every call from now on, commits what is queued and waits for it, and for rows written
   * outside the group, to be on disk; closes the WAL's handles once no sync uses them.
   */
  const close = (): Promise<void> => {
    closing ??= closeOnce()
    return closing
  }
  const syncWritten = (): Promise<void> => (closed ? Promise.reject(refusedAfterClose()) : onDisk())
  return { write, writeOne, read, syncWritten, close }
}

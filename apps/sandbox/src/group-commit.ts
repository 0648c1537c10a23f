import type { Db } from './db.js'

/** Runs `write` in the next group commit; settles once that commit is on disk. */
export type GroupCommit = <T>(write: () => T) => Promise<T>

interface Queued {
  readonly write: () => unknown
  readonly resolve: (value: unknown) => void
  readonly reject: (error: unknown) => void
}

/**
 * Durable writes of many requests in one transaction. With `synchronous=FULL` every commit waits
 * for the disk (an fsync), and better-sqlite3 waits on the event loop, so a commit per payment
 * stalled every other request. Here the writes queued while one commit ran go to disk together in
 * the next: one fsync for the group. Durability is unchanged: a caller's promise settles only after
 * the commit that holds its write has returned, so nothing is acknowledged before it is on disk.
 * Each write is its own savepoint: one that throws (a UNIQUE idempotency key taken by a concurrent
 * request) is rolled back and rejected alone, and the others commit.
 */
export function createGroupCommit(db: Db): GroupCommit {
  let queue: Queued[] = []
  // Nested better-sqlite3 transactions are savepoints.
  const savepoint = db.transaction((write: () => unknown) => write())
  const commitAll = db.transaction((items: readonly Queued[]) =>
    items.map((item): { ok: true; value: unknown } | { ok: false; error: unknown } => {
      try {
        return { ok: true, value: savepoint(item.write) }
      } catch (error) {
        return { ok: false, error }
      }
    }),
  )

  function flush(): void {
    const items = queue
    queue = []
    let results: ReturnType<typeof commitAll>
    try {
      results = commitAll(items)
    } catch (error) {
      // The commit itself failed (disk full, I/O error): nothing of the group is stored.
      for (const item of items) item.reject(error)
      return
    }
    for (const [i, result] of results.entries()) {
      if (result.ok) items[i]!.resolve(result.value)
      else items[i]!.reject(result.error)
    }
  }

  return <T>(write: () => T) =>
    new Promise<T>((resolve, reject) => {
      // setImmediate: after this turn's I/O callbacks, so requests that finished meanwhile join the group.
      if (queue.length === 0) setImmediate(flush)
      queue.push({ write, resolve: resolve as (value: unknown) => void, reject })
    })
}

/**
 * Group commit, so one payment's fsync does not stall every other request: the payment writes
 * queued in one turn go to disk in one transaction,
 * each caller learns of its write only once that transaction has committed, and a write that fails
 * is rolled back alone. A second connection to the same file is the outside observer.
 */
import Database from 'better-sqlite3'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createGroupCommit } from '../src/group-commit.js'
import { freshDataDir } from './support/sandbox-fixture.js'

const opened: Database.Database[] = []
afterEach(() => {
  for (const db of opened.splice(0)) db.close()
})

function databases() {
  const path = join(freshDataDir(), 'group.sqlite')
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, key TEXT UNIQUE)')
  const observer = new Database(path, { readonly: true })
  opened.push(observer, db)
  return { db, observer, committed: () => (observer.prepare('SELECT COUNT(*) AS n FROM items').get() as { n: number }).n }
}

describe('group commit', () => {
  it('commits the writes of one turn together, and settles each only after the commit', async () => {
    const { db, committed } = databases()
    const commit = createGroupCommit(db)
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
    const { db, committed } = databases()
    const commit = createGroupCommit(db)
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

  it('starts a new group for writes that arrive while one is committing', async () => {
    const { db, committed } = databases()
    const commit = createGroupCommit(db)
    const first = commit(() => db.prepare('INSERT INTO items (key) VALUES (?)').run('x'))
    await first
    const later = commit(() => committed())
    expect(await later).toBe(1)
  })
})

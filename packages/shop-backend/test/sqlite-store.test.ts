import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { MIGRATIONS, openSqliteStore } from '../src/sqlite/index.js'
import { attempt, describeStoreConformance } from './store-conformance.js'
import { expectLineItemsAfterUpgrade, ROWS_BEFORE_LINE_ITEMS } from './support/line-items-upgrade.js'

async function tempPath() {
  const dir = await mkdtemp(join(tmpdir(), 'shop-backend-sqlite-'))
  return { path: join(dir, 'data', 'payments.sqlite'), remove: () => rm(dir, { recursive: true, force: true }) }
}

describeStoreConformance('SQLite (better-sqlite3, WAL, a temp file)', async () => {
  const { path, remove } = await tempPath()
  const store = openSqliteStore({ path })
  return {
    store,
    second: async () => openSqliteStore({ path }),
    async cleanup() {
      await store.close()
      await remove()
    },
  }
})

describe('SQLite store: file and schema', () => {
  it('creates its folder, runs in WAL, records each migration once, and keeps data across a reopen', async () => {
    const { path, remove } = await tempPath()
    try {
      const store = openSqliteStore({ path })
      expect(store.database.pragma('journal_mode', { simple: true })).toBe('wal')
      expect(store.schemaVersion).toBe(MIGRATIONS.at(-1)!.version)
      await store.insertAttempt(attempt('o1', 1))
      await store.close()
      const reopened = openSqliteStore({ path })
      expect(reopened.database.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all()).toEqual(
        MIGRATIONS.map((m) => ({ version: m.version, name: m.name })),
      )
      expect(await reopened.listAttempts('o1')).toHaveLength(1)
      await reopened.close()
    } finally {
      await remove()
    }
  })

  it('an upgraded file keeps only the undelivered changes in its outbox (earlier versions kept delivered ones)', async () => {
    const { path, remove } = await tempPath()
    try {
      const before = MIGRATIONS.filter((m) => m.version < 3)
      const old = openSqliteStore({ path, migrations: before })
      const insert = old.database.prepare('INSERT INTO outbox (order_id, change, next_try_at, delivered_at) VALUES (?, ?, ?, ?)')
      insert.run('o1', '{"orderId":"o1"}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z')
      insert.run('o2', '{"orderId":"o2"}', '2026-01-01T00:00:00.000Z', null)
      await old.close()
      const upgraded = openSqliteStore({ path })
      expect(upgraded.database.prepare('SELECT order_id FROM outbox').all()).toEqual([{ order_id: 'o2' }])
      await upgraded.close()
    } finally {
      await remove()
    }
  })

  it('an upgraded file gains line_items on attempts and modifications; its rows read as before, without lines', async () => {
    const { path, remove } = await tempPath()
    try {
      const old = openSqliteStore({ path, migrations: MIGRATIONS.filter((m) => m.version < 6) })
      expect(old.schemaVersion).toBe(5)
      old.database.exec(ROWS_BEFORE_LINE_ITEMS)
      await old.close()
      const upgraded = openSqliteStore({ path })
      expect(upgraded.schemaVersion).toBe(MIGRATIONS.at(-1)!.version)
      await expectLineItemsAfterUpgrade(upgraded)
      await upgraded.close()
    } finally {
      await remove()
    }
  })

  it('a group commit that fails (another connection holds the write lock) is refused to its writers and logged by code', async () => {
    const { path, remove } = await tempPath()
    const lines: string[] = []
    const store = openSqliteStore({ path, log: (line) => lines.push(line) })
    const other = new Database(path)
    try {
      store.database.pragma('busy_timeout = 50')
      other.prepare('BEGIN IMMEDIATE').run()
      const [first, second] = await Promise.allSettled([store.putSetting('a', 'secret-1'), store.putSetting('b', 'secret-2')])
      expect(first).toMatchObject({ status: 'rejected', reason: { code: 'SQLITE_BUSY' } })
      expect(second).toMatchObject({ status: 'rejected', reason: { code: 'SQLITE_BUSY' } })
      expect(lines).toEqual(['sqlite store: a group of 2 writes failed (SQLITE_BUSY); none is stored'])
      other.prepare('ROLLBACK').run()
      await store.putSetting('a', 'secret-1')
      expect(await store.getSetting('a')).toBe('secret-1')
      expect(await store.getSetting('b')).toBeUndefined()
    } finally {
      other.close()
      await store.close()
      await remove()
    }
  })

  it('applies a later migration to an existing file, and refuses a file from a newer package', async () => {
    const { path, remove } = await tempPath()
    try {
      await openSqliteStore({ path }).close()
      const next = [...MIGRATIONS, { version: 99, name: 'test column', sql: 'ALTER TABLE attempts ADD COLUMN note TEXT' }]
      const upgraded = openSqliteStore({ path, migrations: next })
      expect(upgraded.schemaVersion).toBe(99)
      await upgraded.close()
      expect(() => openSqliteStore({ path })).toThrow(/schema version 99 is newer/)
    } finally {
      await remove()
    }
  })
})

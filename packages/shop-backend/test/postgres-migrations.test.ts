/**
 * The PostgreSQL ledger's schema on a real server: migrations applied once by instances that start
 * together, upgrades that keep old rows readable, and instances still running while a newer one adds
 * columns.
 */
import { describe, expect, it } from 'vitest'
import { openPostgresStore, POSTGRES_MIGRATIONS } from '../src/postgres/index.js'
import { attempt } from './store-conformance.js'
import { expectLineItemsAfterUpgrade, ROWS_BEFORE_LINE_ITEMS } from './support/line-items-upgrade.js'
import { freshDatabase, postgres, testPool } from './support/postgres.js'

describe.skipIf(postgres.missing !== undefined)('PostgreSQL store: schema and migrations (a real server)', () => {
  it('several instances opening one new database at once apply each migration once (advisory lock)', async () => {
    const database = await freshDatabase('migrate')
    try {
      const stores = await Promise.all(Array.from({ length: 5 }, () => openPostgresStore({ connectionString: database.url, max: 2 })))
      expect(stores.map((s) => s.schemaVersion)).toEqual(stores.map(() => POSTGRES_MIGRATIONS.at(-1)!.version))
      const { rows } = await stores[0]!.pool.query('SELECT version, name FROM schema_migrations ORDER BY version')
      expect(rows).toEqual(POSTGRES_MIGRATIONS.map((m) => ({ version: m.version, name: m.name })))
      await Promise.all(stores.map((s) => s.close()))
    } finally {
      await database.drop()
    }
  })

  it('an upgraded database keeps only the undelivered changes in its outbox (earlier versions kept delivered ones)', async () => {
    const database = await freshDatabase('outbox')
    const pool = testPool(database.url, 2)
    try {
      await (await openPostgresStore({ pool, migrations: POSTGRES_MIGRATIONS.filter((m) => m.version < 3) })).close()
      await pool.query(
        `INSERT INTO outbox (order_id, change, next_try_at, delivered_at) VALUES
           ('o1', '{"orderId":"o1"}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z'),
           ('o2', '{"orderId":"o2"}', '2026-01-01T00:00:00.000Z', NULL)`,
      )
      await (await openPostgresStore({ pool })).close()
      expect((await pool.query('SELECT order_id FROM outbox')).rows).toEqual([{ order_id: 'o2' }])
    } finally {
      await pool.end()
      await database.drop()
    }
  })

  it('an upgraded database gains line_items on attempts and modifications; its rows read as before, without lines', async () => {
    const database = await freshDatabase('line_items')
    const pool = testPool(database.url, 2)
    try {
      const old = await openPostgresStore({ pool, migrations: POSTGRES_MIGRATIONS.filter((m) => m.version < 6) })
      expect(old.schemaVersion).toBe(5)
      await old.close()
      await pool.query(ROWS_BEFORE_LINE_ITEMS)
      const upgraded = await openPostgresStore({ pool })
      expect(upgraded.schemaVersion).toBe(POSTGRES_MIGRATIONS.at(-1)!.version)
      await expectLineItemsAfterUpgrade(upgraded)
      await upgraded.close()
    } finally {
      await pool.end()
      await database.drop()
    }
  })

  it('an instance already running keeps reading and writing after a newer one adds columns (a rolling upgrade)', async () => {
    // Its statements are prepared on its connections: a plan over "every column" would no longer
    // match the table, and PostgreSQL refuses such a plan ("cached plan must not change result type").
    const database = await freshDatabase('rolling')
    const runningPool = testPool(database.url, 1)
    const newerPool = testPool(database.url, 1)
    try {
      const running = await openPostgresStore({ pool: runningPool })
      await running.insertAttempt(attempt('o1', 1))
      const refund = {
        id: 'refund-o1-1',
        orderId: 'o1',
        attemptId: 'o1:1',
        kind: 'refund' as const,
        amount: { currency: 'EUR', value: 500 },
        idempotencyKey: 'key-refund-o1-1',
        state: 'requested' as const,
        version: 1,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      }
      await running.insertModification(refund)
      const readAll = () =>
        Promise.all([
          running.findAttempt('o1:1'),
          running.listAttempts('o1'),
          running.findModification(refund.id),
          running.listModifications('o1:1'),
        ])
      await readAll() // each statement prepared on the running instance's one connection
      const later = 'ALTER TABLE attempts ADD COLUMN note TEXT; ALTER TABLE modifications ADD COLUMN note TEXT'
      const newer = await openPostgresStore({
        pool: newerPool,
        migrations: [...POSTGRES_MIGRATIONS, { version: 99, name: 'notes', sql: later }],
      })
      await newer.close()
      const [found, listed, modification, modifications] = await readAll()
      expect([found?.id, listed.map((a) => a.id), modification?.state, modifications.map((m) => m.id)]).toEqual([
        'o1:1',
        ['o1:1'],
        'requested',
        [refund.id],
      ])
      const at = '2026-01-01T00:00:01.000Z'
      expect(await running.updateModification(refund.id, 1, { state: 'received', pspReference: 'MOD1', updatedAt: at })).toMatchObject({
        state: 'received',
      })
      await running.close()
    } finally {
      await runningPool.end()
      await newerPool.end()
      await database.drop()
    }
  })

  it("runs on the shop's own pool and leaves it open; applies a later migration; refuses a newer database", async () => {
    const database = await freshDatabase('pool')
    const pool = testPool(database.url, 3)
    try {
      const store = await openPostgresStore({ pool })
      await store.insertAttempt(attempt('o1', 1))
      await store.close()
      expect((await pool.query('SELECT COUNT(*)::int AS n FROM attempts')).rows[0]).toEqual({ n: 1 })
      const next = [...POSTGRES_MIGRATIONS, { version: 99, name: 'test column', sql: 'ALTER TABLE attempts ADD COLUMN note TEXT' }]
      const upgraded = await openPostgresStore({ pool, migrations: next })
      expect(upgraded.schemaVersion).toBe(99)
      expect(await upgraded.listAttempts('o1')).toHaveLength(1)
      await expect(openPostgresStore({ pool })).rejects.toThrow(/schema version 99 is newer/)
    } finally {
      await pool.end()
      await database.drop()
    }
  })
})

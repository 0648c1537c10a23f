import { describe, expect, it } from 'vitest'
import { openPostgresStore, POSTGRES_MIGRATIONS } from '../src/postgres/index.js'
import { attempt, describeStoreConformance } from './store-conformance.js'
import { freshDatabase, postgres, testPool } from './support/postgres.js'

/** A real server (test/support/postgres-server.ts); skipped only when PostgreSQL is not installed and CI is not set. */
const onServer = describe.skipIf(postgres.missing !== undefined)

onServer('PostgreSQL (a real server, a fresh database per test)', () => {
  describeStoreConformance(`PostgreSQL (pg, ${postgres.version.split(' on ')[0]})`, async () => {
    const database = await freshDatabase('conformance')
    const store = await openPostgresStore({ connectionString: database.url })
    return {
      store,
      second: async () => openPostgresStore({ connectionString: database.url }),
      async cleanup() {
        await store.close()
        await database.drop()
      },
    }
  })

  describe('PostgreSQL store: attempts inserted in groups', () => {
    it('attempts asked for at the same time go to the server as one statement', async () => {
      const database = await freshDatabase('one-statement')
      const pool = testPool(database.url, 4)
      const store = await openPostgresStore({ pool })
      try {
        // The shop's own pool, the text of each of its queries noted on its way to the server.
        const sent: string[] = []
        const query = pool.query.bind(pool) as (...args: unknown[]) => unknown
        ;(pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
          sent.push(String((args[0] as { text?: string })?.text ?? args[0]))
          return query(...args)
        }
        const attempts = Array.from({ length: 10 }, (_, i) => attempt(`s${i}`, 1))
        expect(await Promise.all(attempts.map((a) => store.insertAttempt(a)))).toEqual(attempts.map(() => true))
        expect(sent).toEqual([expect.stringMatching(/^INSERT INTO attempts \(.*\) SELECT \* FROM unnest\(/)])
        expect(await store.listAttempts('s7')).toHaveLength(1)
      } finally {
        await store.close()
        await pool.end()
        await database.drop()
      }
    })

    it('an attempt PostgreSQL refuses fails alone: the others asked for at the same time are stored', async () => {
      const database = await freshDatabase('groups')
      const store = await openPostgresStore({ connectionString: database.url })
      try {
        const good = Array.from({ length: 5 }, (_, i) => attempt(`g${i}`, 1))
        const refused = attempt('bad', 1, { number: 1.5 }) // not an integer: the whole group's statement fails
        const results = await Promise.allSettled([...good, refused].map((a) => store.insertAttempt(a)))
        expect(results.slice(0, 5)).toEqual(good.map(() => ({ status: 'fulfilled', value: true })))
        expect(results[5]?.status).toBe('rejected')
        for (const a of good) expect((await store.listAttempts(a.orderId)).map((r) => r.id)).toEqual([a.id])
        expect(await store.listAttempts('bad')).toEqual([])
      } finally {
        await store.close()
        await database.drop()
      }
    })

    it('close answers the inserts already asked for before it ends the pool', async () => {
      const database = await freshDatabase('close')
      const store = await openPostgresStore({ connectionString: database.url })
      try {
        const asked = Array.from({ length: 8 }, (_, i) => store.insertAttempt(attempt(`c${i}`, 1)))
        await store.close()
        expect(await Promise.all(asked)).toEqual(asked.map(() => true))
      } finally {
        await database.drop()
      }
    })
  })

  describe('PostgreSQL store: schema and pool', () => {
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
})

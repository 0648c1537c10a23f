import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { openPostgresStore } from '../src/postgres/index.js'
import { attempt } from './store-conformance.js'
import { postgres } from './support/postgres.js'
import { createDatabase, postgresBinDir, startPostgres } from './support/postgres-process.mjs'

describe.skipIf(postgres.missing !== undefined)('PostgreSQL crashing right after the store acknowledged its writes', () => {
  it('keeps every attempt the store acknowledged, on a server whose commits default to asynchronous', async () => {
    // Commits asynchronous server-wide (the tests' settings), and a WAL writer slowed to its longest
    // pause, so an asynchronous commit waits in the server's memory until the crash loses it.
    const server = await startPostgres({ bin: postgresBinDir()!, durable: false })
    try {
      const admin = new pg.Client({ connectionString: server.adminUrl })
      await admin.connect()
      await admin.query("ALTER SYSTEM SET wal_writer_delay = '10s'")
      await admin.query("ALTER SYSTEM SET wal_writer_flush_after = '1GB'")
      await admin.query('SELECT pg_reload_conf()')
      await admin.end()
      const url = await createDatabase(server.adminUrl, 'crash')
      const store = await openPostgresStore({ connectionString: url, max: 1 })
      const stored = Array.from({ length: 200 }, (_, i) => attempt(`crash-${i}`, 1))
      for (const a of stored) expect(await store.insertAttempt(a)).toBe(true)
      // An immediate shutdown: what is only in the server's memory is gone.
      await server.halt('SIGQUIT')
      await store.close().catch(() => {})
      await server.resume()
      const reopened = await openPostgresStore({ connectionString: url })
      try {
        const kept = await Promise.all(stored.map(async (a) => (await reopened.findAttempt(a.id))?.idempotencyKey === a.idempotencyKey))
        expect(kept.filter((found) => !found).length).toBe(0)
      } finally {
        await reopened.close()
      }
    } finally {
      await server.stop()
    }
  }, 60_000)
})

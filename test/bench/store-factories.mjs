/**
 * The ledger stores the shop-backend bench runs the package's handler on, by name (BENCH_STORES in
 * run.mjs, BENCH_STORE for the server). `open` runs in the shop's process and opens a fresh, empty
 * ledger under `dataDir`; `service` (when a store needs a server) runs in the bench's process before
 * the shop starts, and gives the shop its environment and a `stop` for afterwards.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const postgresProcess = fileURLToPath(new URL('../../packages/shop-backend/test/support/postgres-process.mjs', import.meta.url))

export const storeFactories = {
  sqlite: {
    open: async ({ dataDir }) =>
      (await import('@card-jwe/shop-backend/sqlite')).openSqliteStore({ path: join(dataDir, 'payments.sqlite') }),
  },
  postgres: {
    /**
     * A real PostgreSQL server started the way the package's tests start theirs (the same module),
     * but durable: PostgreSQL's defaults (fsync, synchronous_commit on), as SQLite's synchronous=FULL.
     * A fresh database; stopped and its folder removed afterwards.
     */
    service: async () => {
      const { createDatabase, postgresBinDir, startPostgres } = await import(postgresProcess)
      const bin = postgresBinDir()
      if (!bin)
        throw new Error('BENCH_STORES=postgres: PostgreSQL is not installed (/usr/lib/postgresql/*/bin); run scripts/setup.sh --tests')
      const server = await startPostgres({ bin, durable: true })
      try {
        const url = await createDatabase(server.adminUrl, 'bench_shop')
        return { env: { BENCH_POSTGRES_URL: url }, note: `${server.version}, durable commits (fsync on)`, stop: server.stop }
      } catch (error) {
        await server.stop()
        throw error
      }
    },
    open: async () =>
      (await import('@card-jwe/shop-backend/postgres')).openPostgresStore({ connectionString: process.env.BENCH_POSTGRES_URL }),
  },
}

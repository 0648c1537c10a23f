/**
 * The ledger stores the shop-backend bench runs the package's handler on, by name (BENCH_STORES in
 * run.mjs, BENCH_STORE for the server). Each opens a fresh, empty ledger under `dataDir`.
 */
import { join } from 'node:path'

export const storeFactories = {
  sqlite: async ({ dataDir }) =>
    (await import('@card-jwe/shop-backend/sqlite')).openSqliteStore({ path: join(dataDir, 'payments.sqlite') }),
}

import type { LedgerStore } from '../../src/store/ledger-store.js'
import { openPostgresStore } from '../../src/postgres/index.js'
import { freshDatabase } from './postgres.js'

/** The store a test variant runs on (none: the test shop's own SQLite file), and how to drop it. */
export type Ledger = () => Promise<{ store?: LedgerStore; drop(): Promise<void> }>

/** The test shop's own SQLite file. */
export const onSqlite: Ledger = async () => ({ drop: async () => {} })

/** A fresh database on the run's PostgreSQL server, named after `label`. */
export const onPostgres =
  (label: string): Ledger =>
  async () => {
    const database = await freshDatabase(label)
    const store = await openPostgresStore({ connectionString: database.url })
    return {
      store,
      async drop() {
        await store.close()
        await database.drop()
      },
    }
  }

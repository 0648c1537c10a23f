import type pg from 'pg'
import { logOf, type ShopBackendLog } from '../telemetry/log.js'
import type { Migration } from '../store/migration-plan.js'
import type { LedgerStore } from '../store/ledger-store.js'
import { errorCodeOf } from '../store/error-code.js'
import { sqlLedgerStore } from '../store/sql-ledger-store.js'
import { createLedgerWrites } from './ledger-writes.js'
import { migratePostgres } from './migrate.js'
import { POSTGRES_MIGRATIONS } from './migrations.js'
import { checkServerSettings, poolCommittingSynchronously } from './server-settings.js'
import { pgDriver } from './pg-steps.js'

/** Options of {@link openPostgresStore}: the shop's own pool, or a connection string (the store makes and ends its pool). */
export type PostgresStoreOptions = (
  | {
      /**
       * The shop's pool: the store runs on it and leaves it open at close. Its connections' settings
       * stay the shop's: with `synchronous_commit` off on them the store warns at open.
       */
      readonly pool: pg.Pool
      /** Not with `pool`. */
      readonly connectionString?: never
    }
  | {
      /**
       * `postgres://user:password@host:port/database`: the store makes its pool and ends it at close.
       * Its connections commit synchronously, also where the role's default is off.
       */
      readonly connectionString: string
      /** Connections in that pool; default 10. */
      readonly max?: number
      /** Not with `connectionString`. */
      readonly pool?: never
    }
) & {
  /**
   * Where the store tells what it got over: a group statement that failed and was sent again one
   * write at a time; an idle connection the pool dropped. SQLSTATE codes and counts, never values.
   * Default: nothing, as the back end's own `log`; pass the same function or structured logger to both.
   */
  readonly log?: ShopBackendLog
  /** Test hook: the migrations to apply (default: this version's). */
  readonly migrations?: readonly Migration[]
}

/** A {@link LedgerStore} on PostgreSQL and what it adds. */
export interface PostgresStore extends LedgerStore {
  /** The schema version the database is at. */
  readonly schemaVersion: number
  /** The pool it runs on, for the shop's own read-only reports. */
  readonly pool: pg.Pool
}

/**
 * One statement, so one transaction: a refused value leaves every setting as it was. In id order,
 * so two instances' steps lock their rows in one order and cannot deadlock each other.
 */
async function putSettings(pool: pg.Pool, settings: Readonly<Record<string, string>>): Promise<void> {
  const entries = Object.entries(settings).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  if (entries.length === 0) return
  await pool.query(
    `INSERT INTO settings (id, value) SELECT * FROM unnest($1::text[], $2::text[])
      ON CONFLICT (id) DO UPDATE SET value = excluded.value`,
    [entries.map(([id]) => id), entries.map(([, value]) => value)],
  )
}

/**
 * The ledger on PostgreSQL (`pg`), for several shop instances on one database. Every multi-row
 * write is one transaction; attempts and modifications are compare-and-set by version in SQL; the
 * insert of an attempt number is the lock between instances (`ON CONFLICT DO NOTHING`). Migrations
 * are applied at open, under an advisory lock, recorded in `schema_migrations`.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const owned = options.pool === undefined
  const log = logOf(options.log)
  const pool = options.pool ?? poolCommittingSynchronously({ connectionString: options.connectionString, max: options.max ?? 10 }, log)
  if (owned) {
    // An idle connection that breaks (a server restart) is dropped by the pool; it must not end the process.
    pool.on('error', (error) => {
      const code = String(errorCodeOf(error))
      log(`postgres store: the pool dropped an idle connection (${code})`, 'warn', { component: 'store', code })
    })
  }
  let schemaVersion: number
  try {
    await checkServerSettings(pool, log)
    schemaVersion = await migratePostgres(pool, options.migrations ?? POSTGRES_MIGRATIONS)
  } catch (error) {
    if (owned) await pool.end().catch(() => {})
    throw error
  }
  let closed = false
  // The payment path's writes go in groups, one statement and one commit for many (ledger-writes.ts).
  const writes = createLedgerWrites(pool, log)
  const store = sqlLedgerStore(pgDriver(pool), {
    putSettings: (settings) => putSettings(pool, settings),
    insertAttempt: (a) => writes.insert(a),
    compareAndSet: (id, expectedVersion, patch, change) => writes.update({ id, expectedVersion, patch, change }),
    markDelivered: (id) => writes.delivered(id),
    async close() {
      if (closed) return
      closed = true
      // The writes asked for are answered, not cut off.
      await writes.settled()
      if (owned) await pool.end()
    },
  })
  return { ...store, schemaVersion, pool }
}

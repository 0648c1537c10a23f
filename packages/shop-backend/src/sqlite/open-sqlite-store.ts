import Database from 'better-sqlite3'
import { lineLogOf, type ShopBackendLog } from '../telemetry/log.js'
import { closeSync, fsyncSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Migration } from '../store/migration-plan.js'
import type { LedgerStore } from '../store/ledger-store.js'
import { migrate } from '../store/migrate.js'
import { sqlLedgerStore } from '../store/sql-ledger-store.js'
import { runSync } from '../store/steps.js'
import { createGroupCommit, type GroupCommit, walPathOf } from '@card-jwe/sqlite-group-commit'
import { requireDriverFitsNode } from './driver-fits-node.js'
import { MIGRATIONS } from './migrations.js'
import { sqliteDriver, sqliteMigrationSteps, sqliteSteps } from './sqlite-steps.js'

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /** The database file, e.g. `<data folder>/payments.sqlite`; its folder is created. */
  readonly path: string
  /** Test hook: the migrations to apply (default: this version's). */
  readonly migrations?: readonly Migration[]
  /**
   * Hears what the store cannot tell a single caller: a group commit or a WAL sync that failed (with
   * SQLite's or the OS's error code, never a row's values). Default: nothing, as the back end's own
   * `log`; pass the same function or structured logger to both (at `error`, `component: 'store'`).
   */
  readonly log?: ShopBackendLog
}

/** A {@link LedgerStore} and what it adds. */
export interface SqliteStore extends LedgerStore {
  /** The schema version the database is at. */
  readonly schemaVersion: number
  /** The underlying connection, for the shop's own read-only reports. */
  readonly database: Database.Database
}

function fsyncFolder(path: string): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/**
 * The embedded default store: one SQLite file (better-sqlite3) in WAL mode, busy_timeout for a
 * second process on the same file. Writes share commits, and a write is acknowledged only once its
 * commit is on disk (the WAL fdatasync'd: see @card-jwe/sqlite-group-commit), so it survives a killed process
 * and a power cut alike.
 */
export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  requireDriverFitsNode()
  mkdirSync(dirname(options.path), { recursive: true })
  const db = new Database(options.path)
  db.pragma('journal_mode = WAL')
  db.pragma('busy_timeout = 5000')
  db.pragma('foreign_keys = ON')
  // FULL for the migrations (and their WAL file's creation); then NORMAL with the sync done by createGroupCommit.
  db.pragma('synchronous = FULL')
  const schemaVersion = runSync(migrate(options.migrations ?? MIGRATIONS), sqliteMigrationSteps(db))
  fsyncFolder(dirname(options.path)) // the -wal file's name is on disk too
  db.pragma('synchronous = NORMAL')
  let groupCommit: GroupCommit
  try {
    groupCommit = createGroupCommit(db, {
      walPath: walPathOf(db),
      ...(options.log ? { log: lineLogOf(options.log, 'error', { component: 'store' }) } : {}),
    })
  } catch (error) {
    db.close()
    throw error
  }
  const store = sqlLedgerStore(sqliteDriver(sqliteSteps(db), groupCommit), {
    async close() {
      if (!db.open) return
      await groupCommit.close() // what is queued is committed and on disk, not dropped
      db.close()
    },
  })
  return { ...store, schemaVersion, database: db }
}

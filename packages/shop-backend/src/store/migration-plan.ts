/**
 * Which numbered migrations a database at `current` still lacks, in order (the runner is
 * `src/store/migrate.ts`). A database from a newer package is refused, not guessed at.
 */

/** One numbered step of the ledger's schema, applied in its own transaction with its `schema_migrations` row. */
export interface Migration {
  /** 1, 2, ...: applied in this order, once. */
  readonly version: number
  /** A word for what it does. */
  readonly name: string
  /** The statements, run in one transaction. */
  readonly sql: string
}

/** The steps after `current`, oldest first, and the version the database is at once they ran. */
export function migrationPlan(
  current: number,
  migrations: readonly Migration[],
): { readonly pending: Migration[]; readonly version: number } {
  const newest = migrations.reduce((max, m) => Math.max(max, m.version), 0)
  if (current > newest)
    throw new Error(`ledger database: schema version ${current} is newer than this package knows (${newest}); use the newer package`)
  const pending = migrations.filter((m) => m.version > current).sort((a, b) => a.version - b.version)
  return { pending, version: Math.max(current, newest) }
}

export { openPostgresStore, MIGRATION_LOCK_KEY } from './open-postgres-store.js'
export type { PostgresStore, PostgresStoreOptions } from './open-postgres-store.js'
export { POSTGRES_MIGRATIONS } from './migrations.js'
export type { Migration } from '../lib/migration-plan.js'

export { openSqliteStore } from './open-sqlite-store.js'
export type { SqliteStore, SqliteStoreOptions } from './open-sqlite-store.js'
export { MIGRATIONS } from './migrations.js'
export type { Migration } from './migrations.js'

import type Database from 'better-sqlite3'

/**
 * The `-wal` file SQLite writes for `db`'s main database, from SQLite's own full path (a symlinked
 * database's WAL is beside its target); undefined for a database in memory, which has none. A file
 * database not in WAL mode is misuse: the group commit's sync is the WAL's.
 */
export function walPathOf(db: Database.Database): string | undefined {
  const main = (db.pragma('database_list') as Array<{ name: string; file: string }>).find((entry) => entry.name === 'main')
  if (!main?.file) return undefined
  const mode = String(db.pragma('journal_mode', { simple: true })).toLowerCase()
  if (mode !== 'wal') throw new TypeError(`walPathOf: the database is in journal mode ${mode}, not wal`)
  return `${main.file}-wal`
}

/** A test file's databases and folders, closed and removed after each of its tests. */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'

/** A WAL database with an `items` table and an observer on it. */
export interface TestDatabase {
  readonly db: Database.Database
  readonly observer: Database.Database
  readonly walPath: string
  /** Rows in `items`, as the observer sees them. */
  readonly committed: () => number
}

export function useDatabases(): {
  databases(): TestDatabase
  temporaryFolder(prefix: string): string
  open(path: string): Database.Database
} {
  const opened: Database.Database[] = []
  const folders: string[] = []
  afterEach(() => {
    for (const db of opened.splice(0)) db.close()
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
  })
  /** A folder of its own under the OS's temporary one. */
  const temporaryFolder = (prefix: string) => {
    const folder = mkdtempSync(join(tmpdir(), prefix))
    folders.push(folder)
    return folder
  }
  /** `db` opened on `path` (closed after the test). */
  const open = (path: string) => {
    const db = new Database(path)
    opened.push(db)
    return db
  }
  /**
   * A WAL database with an `items` table, its group commit's sync to come (synchronous=NORMAL: the
   * COMMIT only hands the WAL to the OS), and a second connection as the outside observer.
   */
  function databases(): TestDatabase {
    const path = join(temporaryFolder('group-commit-'), 'group.sqlite')
    const db = new Database(path)
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, key TEXT UNIQUE)')
    const observer = new Database(path, { readonly: true })
    opened.push(observer, db)
    return {
      db,
      observer,
      walPath: `${path}-wal`,
      committed: () => (observer.prepare('SELECT COUNT(*) AS n FROM items').get() as { n: number }).n,
    }
  }
  return { databases, temporaryFolder, open }
}

import type { ShopDb } from './db.js'

/** What the updated-payments poller keeps: its cursor and every change it applied, with their SQL. */
export type ChangeStore = ReturnType<typeof createChangeStore>

/** Prepares every statement once, when the shop starts. */
export function createChangeStore(db: ShopDb) {
  const cursor = db.prepare("SELECT value FROM settings WHERE id = 'poll_cursor'")
  const setCursor = db.prepare(
    "INSERT INTO settings (id, value) VALUES ('poll_cursor', ?) ON CONFLICT(id) DO UPDATE SET value = excluded.value",
  )
  const insertSeen = db.prepare('INSERT INTO seen_changes (sequence, psp_reference, status, applied_at) VALUES (?, ?, ?, ?)')

  return {
    /** The cursor to read updated-payments after; 0 before the first poll. */
    cursor(): number {
      return Number((cursor.get() as { value: string } | undefined)?.value ?? 0)
    },
    setCursor(value: number | string): void {
      setCursor.run(String(value))
    },
    /** Records a change as applied; a change seen before breaks the primary key. */
    recordSeen(change: { sequence: number; pspReference: string; status: string }, appliedAt: string): void {
      insertSeen.run(change.sequence, change.pspReference, change.status, appliedAt)
    },
    /** Runs `write` in one transaction of the shop's database. */
    inTransaction<T>(write: () => T): T {
      return db.transaction(write)()
    },
  }
}

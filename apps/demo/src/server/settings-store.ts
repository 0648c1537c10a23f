import type { ShopDb } from './db.js'

/** The shop's settings table, with its SQL. */
export type SettingsStore = ReturnType<typeof createSettingsStore>

/** Prepares every statement once, when the shop starts. */
export function createSettingsStore(db: ShopDb) {
  const read = db.prepare('SELECT value FROM settings WHERE id = ?')
  const write = db.prepare('INSERT INTO settings (id, value) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET value = excluded.value')
  return {
    read(id: string): string | undefined {
      return (read.get(id) as { value: string } | undefined)?.value
    },
    write(id: string, value: string): void {
      write.run(id, value)
    },
  }
}

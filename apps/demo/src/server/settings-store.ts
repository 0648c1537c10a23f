import type { ShopDb } from './db.js'

/** A stored setting: its value, sealed when `encrypted` is 1. */
export interface SettingRow {
  readonly value: string
  readonly encrypted: number
}

/** The shop's settings table, with its SQL. */
export type SettingsStore = ReturnType<typeof createSettingsStore>

/** Prepares every statement once, when the shop starts. */
export function createSettingsStore(db: ShopDb) {
  const read = db.prepare('SELECT value, encrypted FROM settings WHERE id = ?')
  const write = db.prepare(
    'INSERT INTO settings (id, value, encrypted) VALUES (?, ?, ?) ' +
      'ON CONFLICT(id) DO UPDATE SET value = excluded.value, encrypted = excluded.encrypted',
  )
  return {
    read(id: string): SettingRow | undefined {
      return read.get(id) as SettingRow | undefined
    },
    write(id: string, value: string, encrypted: boolean): void {
      write.run(id, value, encrypted ? 1 : 0)
    },
  }
}

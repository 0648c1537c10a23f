import type { ShopDb } from './db.js'
import type { SecretBox } from './secret-box.js'

/** Settings that are secrets: sealed at rest, never served to the browser. */
const SECRET_SETTINGS = new Set(['service_secret', 'basic_key', 'basic_secret'])

export interface Settings {
  get(id: string): string | undefined
  set(id: string, value: string): void
  /** The settings the service may read and write through the shop-side endpoints. */
  serviceVisible(): Array<{ id: string; value: string }>
}

export function openSettings(db: ShopDb, box: SecretBox): Settings {
  const read = db.prepare('SELECT value, encrypted FROM settings WHERE id = ?')
  const write = db.prepare(
    'INSERT INTO settings (id, value, encrypted) VALUES (?, ?, ?) ' +
      'ON CONFLICT(id) DO UPDATE SET value = excluded.value, encrypted = excluded.encrypted',
  )
  const get = (id: string) => {
    const row = read.get(id) as { value: string; encrypted: number } | undefined
    return row === undefined ? undefined : row.encrypted ? box.open(row.value) : row.value
  }
  return {
    get,
    set(id, value) {
      const secret = SECRET_SETTINGS.has(id)
      write.run(id, secret ? box.seal(value) : value, secret ? 1 : 0)
    },
    // Spec: at least service_secret, empty until registration; the service sees nothing else.
    serviceVisible: () => [{ id: 'service_secret', value: get('service_secret') ?? '' }],
  }
}

import type { ShopDb } from './db.js'
import { createSettingsStore } from './settings-store.js'
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
  const store = createSettingsStore(db)
  const get = (id: string) => {
    const row = store.read(id)
    return row === undefined ? undefined : row.encrypted ? box.open(row.value) : row.value
  }
  return {
    get,
    set(id, value) {
      const secret = SECRET_SETTINGS.has(id)
      store.write(id, secret ? box.seal(value) : value, secret)
    },
    // Spec: at least service_secret, empty until registration; the service sees nothing else.
    serviceVisible: () => [{ id: 'service_secret', value: get('service_secret') ?? '' }],
  }
}

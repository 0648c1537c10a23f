import type { ShopDb } from './db.js'
import { createSettingsStore } from './settings-store.js'

/**
 * The demo's own settings: the merchant set-up's progress (email, contractor, store, onboarding
 * status). The secrets (Basic pair, service_secret) are the shop back end's, sealed in its ledger.
 */
export interface Settings {
  get(id: string): string | undefined
  set(id: string, value: string): void
}

export function openSettings(db: ShopDb): Settings {
  const store = createSettingsStore(db)
  return {
    get: (id) => store.read(id),
    set: (id, value) => store.write(id, value),
  }
}

import type { BackendContext } from './backend-context.js'
import { SETTING } from './backend-context.js'

/** The settings the secret box seals: the pushed `service_secret` and the Basic pair. */
export const SEALED_SETTINGS = [SETTING.serviceSecret, SETTING.basicKey, SETTING.basicSecret] as const

/** What `backend.resealSecrets()` did. */
export interface ResealReport {
  /** The settings it sealed again under the current key (`service_secret`, `basic_key`, `basic_secret`); empty when none needed it. */
  readonly resealed: readonly string[]
}

/**
 * Seals again, under the current `secretKey`, every sealed setting a previous key sealed (the last
 * step of a rotation). Each write is a compare-and-set on the text it read: a secret the service
 * pushed meanwhile (sealed under the current key already) is never overwritten by the older one.
 */
export async function resealSecrets(context: BackendContext): Promise<ResealReport> {
  const box = await context.box()
  const resealed: string[] = []
  for (const id of SEALED_SETTINGS) {
    for (;;) {
      const sealed = await context.store.getSetting(id)
      if (sealed === undefined) break
      const again = await box.reseal(sealed)
      if (again === undefined) break
      if (await context.store.replaceSetting(id, sealed, again)) {
        resealed.push(id)
        break
      }
      // Written meanwhile: read it again (a push is sealed under the current key, so the next read ends it).
    }
  }
  return { resealed }
}

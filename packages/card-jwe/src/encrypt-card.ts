import type { EncryptionCertificate } from './import-certificate.js'
import { normalizeCard, type CardInput } from './normalize-card.js'
import { seal } from './lib/seal.js'
import type { Clock } from './lib/clock.js'

export { CARD_JWE_HEADER } from './lib/seal.js'

/** Options of {@link encryptCard}. */
export interface EncryptCardOptions {
  /** Clock for `generationtime` and the expiry check; defaults to the real time. Inject one in tests. */
  readonly now?: Clock
}

/**
 * Normalises the card and encrypts it, with `generationtime` set now, into one compact JWE.
 * Call it when the shopper submits: the service refuses a `generationtime` that is no longer recent.
 */
export async function encryptCard(card: CardInput, certificate: EncryptionCertificate, options: EncryptCardOptions = {}): Promise<string> {
  return seal(certificate, options.now, (now) => normalizeCard(card, { now: () => now }))
}

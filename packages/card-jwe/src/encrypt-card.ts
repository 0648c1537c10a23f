import { CompactEncrypt } from 'jose'
import { CardJweError } from './errors.js'
import { assertCertificateCurrent, type EncryptionCertificate } from './import-certificate.js'
import { normalizeCard, type CardInput } from './normalize-card.js'
import { readClock, type Clock } from './lib/clock.js'

/**
 * The protected header the service requires (spec: "Card payload for JWE"). The legacy RSA-OAEP and
 * A128CBC-HS256 are still accepted by the service but must not be used in new integrations, so this
 * is the only header card-jwe ever writes. Key order is kept as the spec lists it.
 */
export const CARD_JWE_HEADER = Object.freeze({
  /** Key management: RSAES-OAEP with SHA-256 (RFC 7518 section 4.3). */
  alg: 'RSA-OAEP-256',
  /** Content encryption: AES-256 in GCM mode (RFC 7518 section 5.3). */
  enc: 'A256GCM',
  /** The payload format's version, as the service requires. */
  version: '1',
} as const)

/** Options of {@link encryptCard}. */
export interface EncryptCardOptions {
  /** Clock for `generationtime` and the expiry check; defaults to the real time. Inject one in tests. */
  readonly now?: Clock
}

const encoder = new TextEncoder()

/**
 * Normalises the card and encrypts it, with `generationtime` set now, into one compact JWE.
 * Call it when the shopper submits: the service refuses a `generationtime` that is no longer recent.
 */
export async function encryptCard(card: CardInput, certificate: EncryptionCertificate, options: EncryptCardOptions = {}): Promise<string> {
  if (!(certificate?.key instanceof CryptoKey)) {
    throw new CardJweError('ERR_INVALID_ARGUMENT', 'certificate: use importCertificate()')
  }
  const now = readClock(options.now)
  const payload = { ...normalizeCard(card, { now: () => now }), generationtime: now.toISOString() }
  assertCertificateCurrent(certificate, now)
  try {
    return await new CompactEncrypt(encoder.encode(JSON.stringify(payload))).setProtectedHeader(CARD_JWE_HEADER).encrypt(certificate.key)
  } catch (error) {
    throw new CardJweError('ERR_ENCRYPTION_FAILED', 'encryption failed', { cause: error })
  }
}

import { CompactEncrypt } from 'jose'
import { CardJweError } from '../errors.js'
import { assertCertificateCurrent, type EncryptionCertificate } from '../import-certificate.js'
import { readClock, type Clock } from './clock.js'

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

const encoder = new TextEncoder()

/**
 * One compact JWE of `payloadAt(now)` with `generationtime` added, under the one header: the whole
 * card and a saved card's code alone go through here, so both are encrypted the same way.
 */
export async function seal(certificate: EncryptionCertificate, now: Clock | undefined, payloadAt: (now: Date) => object): Promise<string> {
  if (!(certificate?.key instanceof CryptoKey)) {
    throw new CardJweError('ERR_INVALID_ARGUMENT', 'certificate: use importCertificate()')
  }
  const at = readClock(now)
  const payload = { ...payloadAt(at), generationtime: at.toISOString() }
  assertCertificateCurrent(certificate, at)
  try {
    return await new CompactEncrypt(encoder.encode(JSON.stringify(payload))).setProtectedHeader(CARD_JWE_HEADER).encrypt(certificate.key)
  } catch (error) {
    throw new CardJweError('ERR_ENCRYPTION_FAILED', 'encryption failed', { cause: error })
  }
}

import { CardJweError, type CardJweErrorCode } from './errors.js'
import { certificateBytes, type CertificateInput } from './lib/certificate-bytes.js'
import { readClock, type Clock } from './lib/clock.js'
import { normalizeFingerprint, sha256Fingerprint } from './lib/fingerprint.js'
import { parseCertificate } from './lib/parse-certificate.js'
import { getSubtle } from './lib/subtle.js'

export type { CertificateInput }

/** RFC 7518 section 4.3 requires RSA keys of 2048 bits or more for RSA-OAEP. */
export const MIN_RSA_KEY_BITS = 2048

/** A processor certificate, imported once and reused for every card. */
export interface EncryptionCertificate {
  /** RSA-OAEP (SHA-256) public key, usable only to encrypt. */
  readonly key: CryptoKey
  /** SHA-256 over the certificate's DER, "AB:CD:..." as openssl prints it. */
  readonly fingerprint: string
  /** Start of the certificate's validity. */
  readonly notBefore: Date
  /** End of the certificate's validity; refresh the certificate before it. */
  readonly notAfter: Date
  /** Size of the RSA modulus, 2048 or more. */
  readonly keyBits: number
}

/** Options of {@link importCertificate}. */
export interface ImportCertificateOptions {
  /** Expected SHA-256 fingerprint (colons and case do not matter). Catches a live/test certificate mix-up. */
  readonly fingerprint?: string
  /** Clock for the validity check; defaults to the real time. */
  readonly now?: Clock
}

function refuse(code: CardJweErrorCode, why: string, cause?: unknown): never {
  throw new CardJweError(code, `certificate: ${why}`, { cause })
}

/** Throws unless `now` lies within the certificate's validity period (RFC 5280 4.1.2.5). */
export function assertCertificateCurrent(certificate: Pick<EncryptionCertificate, 'notBefore' | 'notAfter'>, now: Date): void {
  if (now < certificate.notBefore) refuse('ERR_CERTIFICATE_NOT_YET_VALID', `valid from ${certificate.notBefore.toISOString()}`)
  if (now > certificate.notAfter) refuse('ERR_CERTIFICATE_EXPIRED', `expired ${certificate.notAfter.toISOString()}`)
}

/**
 * Reads the processor's X.509 certificate (PEM text, bare base64 or DER bytes) and imports its
 * public key for RSA-OAEP-256. Refuses non-RSA keys, keys under 2048 bits, certificates outside
 * their validity dates and, when a pin is given, any other certificate.
 */
export async function importCertificate(input: CertificateInput, options: ImportCertificateOptions = {}): Promise<EncryptionCertificate> {
  const subtle = getSubtle()
  const pin = options.fingerprint === undefined ? undefined : normalizeFingerprint(options.fingerprint)
  const der = certificateBytes(input)
  let fields
  try {
    fields = parseCertificate(der)
  } catch (error) {
    refuse('ERR_CERTIFICATE_MALFORMED', `not X.509 (${(error as Error).message})`, error)
  }
  if (!fields.isRsaEncryptionKey) refuse('ERR_CERTIFICATE_KEY_TYPE', 'key is not RSA')
  // Digest and key import run side by side: the first JWE of a page waits on both.
  const [fingerprint, key] = await Promise.all([
    sha256Fingerprint(subtle, der),
    subtle
      .importKey('spki', fields.spki as Uint8Array<ArrayBuffer>, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt'])
      .catch((error: unknown) => refuse('ERR_CERTIFICATE_MALFORMED', 'RSA key import failed', error)),
  ])
  if (pin !== undefined && normalizeFingerprint(fingerprint) !== pin)
    refuse('ERR_CERTIFICATE_FINGERPRINT', 'fingerprint does not match the pin')
  const keyBits = (key.algorithm as RsaHashedKeyAlgorithm).modulusLength
  if (keyBits < MIN_RSA_KEY_BITS) refuse('ERR_CERTIFICATE_KEY_SIZE', `RSA key has ${keyBits} bits, under ${MIN_RSA_KEY_BITS}`)
  const certificate = { key, fingerprint, notBefore: fields.notBefore, notAfter: fields.notAfter, keyBits }
  assertCertificateCurrent(certificate, readClock(options.now))
  return Object.freeze(certificate)
}

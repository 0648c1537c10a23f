import { CardJweError } from '../errors.js'

/** SHA-256 over the certificate's DER, as `openssl x509 -fingerprint -sha256` prints it: "AB:CD:...". */
export async function sha256Fingerprint(subtle: SubtleCrypto, der: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await subtle.digest('SHA-256', der as Uint8Array<ArrayBuffer>))
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0'))
    .join(':')
    .toUpperCase()
}

/** A fingerprint in any common spelling (colons or not, any case) reduced to 64 lowercase hex digits. */
export function normalizeFingerprint(pin: string): string {
  const hex = String(pin).replace(/[:\s]/g, '').toLowerCase()
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new CardJweError('ERR_INVALID_ARGUMENT', 'fingerprint: expected 64 hex digits (SHA-256)')
  return hex
}

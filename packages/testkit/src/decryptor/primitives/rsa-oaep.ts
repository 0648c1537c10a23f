import { undecryptable } from '../errors.js'
import { buf, subtle } from '../lib/subtle.js'

/**
 * RSAES-OAEP decryption (RFC 8017 section 7.1.2) with the hash the key was imported for
 * (SHA-256 for RSA-OAEP-256, SHA-1 for RSA-OAEP). JWE uses the empty label (RFC 7518 4.3);
 * `label` is there for the primitive's own test vectors. Every failure is the generic one:
 * telling padding errors apart is Manger's attack.
 */
export async function rsaOaepDecrypt(key: CryptoKey, ciphertext: Uint8Array, label?: Uint8Array): Promise<Uint8Array> {
  const modulusBytes = (key.algorithm as RsaHashedKeyAlgorithm).modulusLength / 8
  // RFC 8017 7.1.2 step 1.b: the ciphertext is exactly k octets.
  if (ciphertext.length !== modulusBytes) throw undecryptable('encrypted key: wrong length for the RSA key')
  try {
    const params: RsaOaepParams = label && label.length > 0 ? { name: 'RSA-OAEP', label: buf(label) } : { name: 'RSA-OAEP' }
    return new Uint8Array(await subtle().decrypt(params, key, buf(ciphertext)))
  } catch {
    throw undecryptable('encrypted key: RSA-OAEP decryption failed')
  }
}

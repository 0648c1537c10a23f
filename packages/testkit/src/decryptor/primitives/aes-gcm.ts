import { undecryptable } from '../errors.js'
import { buf, subtle } from '../lib/subtle.js'

/** JWE fixes the GCM IV at 96 bits and the tag at 128 bits (RFC 7518 section 5.3). */
export const GCM_IV_BYTES = 12
export const GCM_TAG_BYTES = 16

/**
 * AES-GCM decryption with JWE's parameters. Other IV or tag sizes, legal in GCM itself, are
 * refused: the service takes only what RFC 7518 allows.
 */
export async function aesGcmDecrypt(
  key: Uint8Array,
  iv: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
  aad: Uint8Array,
): Promise<Uint8Array> {
  if (![16, 24, 32].includes(key.length)) throw undecryptable('content key: wrong length for AES-GCM')
  if (iv.length !== GCM_IV_BYTES) throw undecryptable('iv: not 96 bits')
  if (tag.length !== GCM_TAG_BYTES) throw undecryptable('tag: not 128 bits')
  const sealed = new Uint8Array(ciphertext.length + tag.length)
  sealed.set(ciphertext)
  sealed.set(tag, ciphertext.length)
  try {
    const cryptoKey = await subtle().importKey('raw', buf(key), 'AES-GCM', false, ['decrypt'])
    const params: AesGcmParams = { name: 'AES-GCM', iv: buf(iv), additionalData: buf(aad), tagLength: 128 }
    return new Uint8Array(await subtle().decrypt(params, cryptoKey, sealed))
  } catch {
    throw undecryptable('tag: AES-GCM authentication failed')
  }
}

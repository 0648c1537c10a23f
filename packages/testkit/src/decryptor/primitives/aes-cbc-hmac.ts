import { undecryptable } from '../errors.js'
import { buf, subtle } from '../lib/subtle.js'

export const CBC_HS256_KEY_BYTES = 32
export const CBC_IV_BYTES = 16
export const CBC_HS256_TAG_BYTES = 16

/** Compares without an early exit, so timing does not tell how many tag bytes were right. */
function equalInConstantTime(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!
  return diff === 0
}

/**
 * AES_128_CBC_HMAC_SHA_256 decryption, RFC 7518 section 5.2.2.2: MAC_KEY is the first 16 key
 * bytes, ENC_KEY the last 16; the tag is the first 16 bytes of HMAC-SHA-256 over
 * AAD || IV || ciphertext || AL, where AL is the AAD's length in bits as a 64-bit big-endian
 * integer. The tag is checked before any decryption (no padding oracle).
 */
export async function aesCbcHmacSha256Decrypt(
  key: Uint8Array,
  iv: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
  aad: Uint8Array,
): Promise<Uint8Array> {
  if (key.length !== CBC_HS256_KEY_BYTES) throw undecryptable('content key: wrong length for A128CBC-HS256')
  if (iv.length !== CBC_IV_BYTES) throw undecryptable('iv: not 128 bits')
  if (tag.length !== CBC_HS256_TAG_BYTES) throw undecryptable('tag: not 128 bits')

  const macInput = new Uint8Array(aad.length + iv.length + ciphertext.length + 8)
  macInput.set(aad)
  macInput.set(iv, aad.length)
  macInput.set(ciphertext, aad.length + iv.length)
  new DataView(macInput.buffer).setBigUint64(macInput.length - 8, BigInt(aad.length) * 8n)

  const macKey = await subtle().importKey('raw', buf(key.slice(0, 16)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await subtle().sign('HMAC', macKey, macInput))
  if (!equalInConstantTime(mac.subarray(0, CBC_HS256_TAG_BYTES), tag)) throw undecryptable('tag: HMAC check failed')

  try {
    const encKey = await subtle().importKey('raw', buf(key.slice(16)), 'AES-CBC', false, ['decrypt'])
    return new Uint8Array(await subtle().decrypt({ name: 'AES-CBC', iv: buf(iv) }, encKey, buf(ciphertext)))
  } catch {
    throw undecryptable('ciphertext: AES-CBC decryption failed')
  }
}

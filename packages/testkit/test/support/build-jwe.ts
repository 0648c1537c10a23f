/**
 * Builds compact JWEs the way a sender would, with every parameter open to change, so the
 * decryptor can be shown real ciphertext with a bad header, IV, key size or mode. WebCrypto only.
 */
import { createPublicKey } from 'node:crypto'
import { encodeBase64url } from '@card-jwe/testkit/decryptor'
import { TEST_EXPIRY } from '@card-jwe/testkit/test-cards'

export interface BuildJweOptions {
  /** Protected header as exact JSON text (duplicates and all). Default: the service header for `alg`/`enc`. */
  readonly header?: string
  readonly alg?: 'RSA-OAEP-256' | 'RSA-OAEP'
  readonly enc?: 'A256GCM' | 'A128CBC-HS256'
  readonly cekBytes?: number
  readonly ivBytes?: number
  /** Bytes of tag to keep (JWE keeps 16). */
  readonly tagBytes?: number
}

type Bytes = Uint8Array<ArrayBuffer>
const bytes = (n: number): Bytes => crypto.getRandomValues(new Uint8Array(n))

async function wrapKey(certificatePem: string, alg: string, cek: Bytes): Promise<Uint8Array> {
  const spki = new Uint8Array(createPublicKey(certificatePem).export({ type: 'spki', format: 'der' }))
  const hash = alg === 'RSA-OAEP' ? 'SHA-1' : 'SHA-256'
  const key = await crypto.subtle.importKey('spki', spki, { name: 'RSA-OAEP', hash }, false, ['encrypt'])
  return new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, cek))
}

async function sealGcm(cek: Bytes, iv: Bytes, plaintext: Bytes, aad: Bytes): Promise<[Uint8Array, Uint8Array]> {
  const key = await crypto.subtle.importKey('raw', cek, 'AES-GCM', false, ['encrypt'])
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad, tagLength: 128 }, key, plaintext))
  return [sealed.slice(0, -16), sealed.slice(-16)]
}

/** RFC 7518 5.2.2.1, the sender's side of AES_128_CBC_HMAC_SHA_256. */
async function sealCbcHmac(cek: Bytes, iv: Bytes, plaintext: Bytes, aad: Bytes): Promise<[Uint8Array, Uint8Array]> {
  const encKey = await crypto.subtle.importKey('raw', cek.slice(16), 'AES-CBC', false, ['encrypt'])
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, encKey, plaintext))
  const macInput = new Uint8Array([...aad, ...iv, ...ciphertext, ...new Uint8Array(8)])
  new DataView(macInput.buffer).setBigUint64(macInput.length - 8, BigInt(aad.length) * 8n)
  const macKey = await crypto.subtle.importKey('raw', cek.slice(0, 16), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return [ciphertext, new Uint8Array(await crypto.subtle.sign('HMAC', macKey, macInput)).slice(0, 16)]
}

export async function buildJwe(certificatePem: string, plaintext: string | Uint8Array, options: BuildJweOptions = {}): Promise<string> {
  const alg = options.alg ?? 'RSA-OAEP-256'
  const enc = options.enc ?? 'A256GCM'
  const header = options.header ?? JSON.stringify({ alg, enc, version: '1' })
  const headerB64 = encodeBase64url(new TextEncoder().encode(header))
  const cek = bytes(options.cekBytes ?? 32)
  const iv = bytes(options.ivBytes ?? (enc === 'A256GCM' ? 12 : 16))
  const data: Bytes = typeof plaintext === 'string' ? new TextEncoder().encode(plaintext) : new Uint8Array(plaintext)
  const aad = new TextEncoder().encode(headerB64)
  const [ciphertext, tag] = enc === 'A256GCM' ? await sealGcm(cek, iv, data, aad) : await sealCbcHmac(cek, iv, data, aad)
  const encryptedKey = await wrapKey(certificatePem, alg, cek)
  return [headerB64, encryptedKey, iv, ciphertext, tag.slice(0, options.tagBytes ?? 16)]
    .map((part) => (typeof part === 'string' ? part : encodeBase64url(part)))
    .join('.')
}

/** A card payload as the service expects it, with fields to override or drop (`undefined`). */
export function cardPayload(overrides: Record<string, unknown> = {}): string {
  const card: Record<string, unknown> = {
    number: '4111111145551142',
    expiryMonth: TEST_EXPIRY.month,
    expiryYear: TEST_EXPIRY.year,
    cvc: '737',
    generationtime: new Date().toISOString(),
    ...overrides,
  }
  return JSON.stringify(card)
}

import { fromBase64url, toBase64url } from './lib/base64url.js'

/**
 * Encryption at rest for the pushed `service_secret` and the Basic pair (spec: "service_secret is
 * stored permanently, encrypted, outside any web root"): AES-256-GCM through WebCrypto, under a
 * key the shop keeps outside the store (a file of its own, a KMS, an environment secret).
 */
export interface SecretBox {
  /** AES-256-GCM with a fresh IV: the text to store. */
  seal(plaintext: string): Promise<string>
  /** The plaintext back; rejects on a wrong key or an altered text. */
  open(sealed: string): Promise<string>
}

/** 32 random bytes for {@link createSecretBox}: keep them outside the database. */
export function generateSecretKey(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(32))
}

/** A box under a 256-bit key (raw bytes or an AES-GCM `CryptoKey`). Sealed text: `v1.<iv>.<ciphertext+tag>`. */
export async function createSecretBox(key: Uint8Array | CryptoKey): Promise<SecretBox> {
  if (key instanceof Uint8Array && key.byteLength !== 32) throw new TypeError('secretKey: 32 bytes (AES-256)')
  const cryptoKey =
    key instanceof Uint8Array ? await crypto.subtle.importKey('raw', key.slice(), 'AES-GCM', false, ['encrypt', 'decrypt']) : key
  return {
    async seal(plaintext) {
      const iv = crypto.getRandomValues(new Uint8Array(12))
      const body = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, cryptoKey, new TextEncoder().encode(plaintext)))
      return ['v1', toBase64url(iv), toBase64url(body)].join('.')
    },
    async open(sealed) {
      const [version, iv, body, extra] = sealed.split('.')
      if (version !== 'v1' || !iv || !body || extra !== undefined) throw new TypeError('sealed secret: unknown format')
      let plain: ArrayBuffer
      try {
        plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64url(iv).slice() }, cryptoKey, fromBase64url(body).slice())
      } catch (cause) {
        // WebCrypto says only "OperationError"; the usual reason is an instance started with another key.
        throw new TypeError(
          'sealed secret: cannot be opened with this secretKey (another key sealed it, or the stored text was altered); ' +
            'every instance needs the key the store was sealed with',
          { cause },
        )
      }
      return new TextDecoder().decode(plain)
    },
  }
}

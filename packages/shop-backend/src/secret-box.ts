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
  /** The text sealed again under the current key when a previous key sealed it; undefined when the current one did. */
  reseal(sealed: string): Promise<string | undefined>
}

/** 32 random bytes for {@link createSecretBox}: keep them outside the database. */
export function generateSecretKey(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(32))
}

/** Options of {@link createSecretBox}. */
export interface SecretBoxOptions {
  /** Keys that sealed earlier texts: they still open them (a rotation in progress); nothing is sealed with them. */
  readonly previousKeys?: ReadonlyArray<Uint8Array | CryptoKey>
}

async function aesKeyOf(key: Uint8Array | CryptoKey, name: string): Promise<CryptoKey> {
  if (!(key instanceof Uint8Array)) return key
  if (key.byteLength !== 32) throw new TypeError(`${name}: 32 bytes (AES-256)`)
  return crypto.subtle.importKey('raw', key.slice(), 'AES-GCM', false, ['encrypt', 'decrypt'])
}

/** The plaintext under `key`, or undefined when that key did not seal it (or the text was altered). */
async function openWith(key: CryptoKey, iv: Uint8Array, body: Uint8Array): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: iv.slice() }, key, body.slice()))
  } catch {
    return undefined
  }
}

/**
 * A box under a 256-bit key (raw bytes or an AES-GCM `CryptoKey`). Sealed text: `v1.<iv>.<ciphertext+tag>`.
 * With `previousKeys`, texts sealed under those still open, and {@link SecretBox.reseal} moves them to `key`.
 */
export async function createSecretBox(key: Uint8Array | CryptoKey, options: SecretBoxOptions = {}): Promise<SecretBox> {
  const current = await aesKeyOf(key, 'secretKey')
  const previous = await Promise.all((options.previousKeys ?? []).map((k) => aesKeyOf(k, 'previousSecretKeys')))
  async function seal(plaintext: string): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(12))
    const body = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, current, new TextEncoder().encode(plaintext)))
    return ['v1', toBase64url(iv), toBase64url(body)].join('.')
  }
  /** The plaintext, and whether the current key sealed it. */
  async function openAny(sealed: string): Promise<{ plaintext: string; current: boolean }> {
    const [version, iv, body, extra] = sealed.split('.')
    if (version !== 'v1' || !iv || !body || extra !== undefined) throw new TypeError('sealed secret: unknown format')
    const [ivBytes, bodyBytes] = [fromBase64url(iv), fromBase64url(body)]
    for (const [i, candidate] of [current, ...previous].entries()) {
      const plaintext = await openWith(candidate, ivBytes, bodyBytes)
      if (plaintext !== undefined) return { plaintext, current: i === 0 }
    }
    // WebCrypto says only "OperationError"; the usual reason is an instance started with another key.
    throw new TypeError(
      'sealed secret: cannot be opened with this secretKey (another key sealed it, or the stored text was altered); ' +
        'every instance needs the key the store was sealed with (or that key among previousSecretKeys while rotating)',
    )
  }
  return {
    seal,
    open: async (sealed) => (await openAny(sealed)).plaintext,
    async reseal(sealed) {
      const opened = await openAny(sealed)
      return opened.current ? undefined : seal(opened.plaintext)
    },
  }
}

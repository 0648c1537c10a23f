import { DecryptionError, undecryptable } from './errors.js'
import { decodeBase64url } from './lib/base64url.js'
import { parseCardPayload, type DecryptedCard } from './lib/card-payload.js'
import { parseSecurityCodePayload, type DecryptedSecurityCode } from './lib/security-code-payload.js'
import { importOaepKeys, type PrivateKeyInput } from './lib/private-key.js'
import { parseProtectedHeader, type CardJweHeader } from './lib/protected-header.js'
import { aesCbcHmacSha256Decrypt } from './primitives/aes-cbc-hmac.js'
import { aesGcmDecrypt } from './primitives/aes-gcm.js'
import { rsaOaepDecrypt } from './primitives/rsa-oaep.js'

/**
 * How old a `generationtime` may be. The spec leaves the window unstated ("Limits" 1); 24 hours is
 * what the widely used checkout APIs document for client-side encrypted card data.
 */
export const DEFAULT_MAX_AGE_SECONDS = 24 * 60 * 60
/** How far ahead of our clock a `generationtime` may be, for shoppers' clocks that run fast. */
export const DEFAULT_MAX_CLOCK_SKEW_SECONDS = 5 * 60
/** Far above any card JWE (about 700 characters with a 2048-bit key); larger input is refused unread. */
export const MAX_JWE_LENGTH = 16 * 1024
/** RFC 7518 section 4.3. */
export const MIN_RSA_KEY_BITS = 2048
/** Both accepted content encryptions use a 256-bit content key. */
const CEK_BYTES = 32

/** Options of {@link createCardDecryptor}: the service's time limits, and a clock. */
export interface CardDecryptorOptions {
  /** Oldest accepted `generationtime`, in seconds before now. Default 86400 (24 hours). */
  readonly maxAgeSeconds?: number
  /** Newest accepted `generationtime`, in seconds after now. Default 300. */
  readonly maxClockSkewSeconds?: number
  /** Clock; defaults to the real time. */
  readonly now?: () => Date
}

/** What {@link CardDecryptor.decrypt} returns. */
export interface DecryptedCardJwe {
  /** The protected header, checked. */
  readonly header: CardJweHeader
  /** The payload, checked against the spec's formats and time limits. */
  readonly card: DecryptedCard
}

/** What {@link CardDecryptor.decryptSecurityCode} returns. */
export interface DecryptedSecurityCodeJwe {
  /** The protected header, checked. */
  readonly header: CardJweHeader
  /** The payload: the code and its time, nothing else. */
  readonly securityCode: DecryptedSecurityCode
}

/** Options of {@link CardDecryptor.decryptSecurityCode}. */
export interface SecurityCodeOptions {
  /** The saved card's brand's code length: 4 for American Express, else 3; either when absent. */
  readonly codeSize?: 3 | 4
}

/** What {@link CardDecryptor.open} returns. */
export interface OpenedJwe {
  /** The protected header, checked. */
  readonly header: CardJweHeader
  /** The decrypted payload bytes, unparsed. */
  readonly plaintext: Uint8Array
}

/** A reference decryptor for one private key; see {@link createCardDecryptor}. */
export interface CardDecryptor {
  /** Decrypts and checks one compact card JWE; throws DecryptionError with one of the service's messages. */
  decrypt(jwe: string): Promise<DecryptedCardJwe>
  /**
   * Decrypts and checks a saved card's code-only JWE (`{cvc, generationtime}`, nothing else), with
   * the same header, time and message rules as {@link CardDecryptor.decrypt}.
   */
  decryptSecurityCode(jwe: string, options?: SecurityCodeOptions): Promise<DecryptedSecurityCodeJwe>
  /** The JOSE layer alone: every check up to the plaintext, none of the card or time checks. */
  open(jwe: string): Promise<OpenedJwe>
  /** The private key's modulus size. */
  readonly keyBits: number
}

/**
 * A decryptor that answers as the service does: the current algorithms and the legacy ones it
 * still accepts, nothing else; `Unable to decrypt the provided data` for anything it cannot open,
 * `Encrypted data is no longer valid` for a stale `generationtime`, `Invalid card details` for a
 * payload that breaks the spec's formats.
 */
export async function createCardDecryptor(privateKey: PrivateKeyInput, options: CardDecryptorOptions = {}): Promise<CardDecryptor> {
  const keys = await importOaepKeys(privateKey)
  const maxAgeMs = (options.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS) * 1000
  const maxSkewMs = (options.maxClockSkewSeconds ?? DEFAULT_MAX_CLOCK_SKEW_SECONDS) * 1000
  const now = options.now ?? (() => new Date())

  async function open(jwe: string): Promise<OpenedJwe> {
    if (typeof jwe !== 'string') throw undecryptable('jwe: not a string')
    if (jwe.length > MAX_JWE_LENGTH) throw undecryptable(`jwe: longer than ${MAX_JWE_LENGTH} characters`)
    if (keys.modulusBits < MIN_RSA_KEY_BITS) throw undecryptable(`key: under ${MIN_RSA_KEY_BITS} bits`)
    const segments = jwe.split('.')
    if (segments.length !== 5) throw undecryptable('jwe: not five compact segments')
    const [headerB64, keyB64, ivB64, ciphertextB64, tagB64] = segments as [string, string, string, string, string]

    const header = parseProtectedHeader(decodeBase64url(headerB64, 'header'))
    const encryptedKey = decodeBase64url(keyB64, 'encrypted key')
    const iv = decodeBase64url(ivB64, 'iv')
    const ciphertext = decodeBase64url(ciphertextB64, 'ciphertext')
    const tag = decodeBase64url(tagB64, 'tag')

    let cek = await rsaOaepDecrypt(header.alg === 'RSA-OAEP-256' ? keys.sha256 : keys.sha1, encryptedKey)
    // Where the engine drops leading zeros (WebKitGTK), put them back: the key is 32 octets (RFC 7518 5.3, 4.3).
    if (keys.dropsLeadingZeros && cek.length < CEK_BYTES) {
      const padded = new Uint8Array(CEK_BYTES)
      padded.set(cek, CEK_BYTES - cek.length)
      cek = padded
    }
    if (cek.length !== CEK_BYTES) throw undecryptable('content key: not 256 bits')
    // RFC 7516 5.2 step 14: the AAD is the ASCII of the encoded protected header.
    const aad = new TextEncoder().encode(headerB64)
    const plaintext =
      header.enc === 'A256GCM'
        ? await aesGcmDecrypt(cek, iv, ciphertext, tag, aad)
        : await aesCbcHmacSha256Decrypt(cek, iv, ciphertext, tag, aad)
    return { header, plaintext }
  }

  /** The time window, after the format: a `generationtime` neither too old nor too far ahead. */
  function checkTime(generationtime: string): void {
    const generated = Date.parse(generationtime)
    const age = now().getTime() - generated
    if (Number.isNaN(generated)) throw new DecryptionError('INVALID_CARD_DETAILS', 'generationtime: not a real date')
    if (age > maxAgeMs) throw new DecryptionError('NO_LONGER_VALID', 'generationtime: older than the accepted window')
    if (-age > maxSkewMs) throw new DecryptionError('NO_LONGER_VALID', 'generationtime: ahead of the accepted clock skew')
  }

  /** A card JWE opened: its header must carry version 1, as the spec's does (a JWE opened as such, a test vector, need not). */
  async function openCard(jwe: string): Promise<OpenedJwe> {
    const opened = await open(jwe)
    if (opened.header.version !== '1') throw undecryptable('header.version: not "1"')
    return opened
  }

  async function decrypt(jwe: string): Promise<DecryptedCardJwe> {
    const { header, plaintext } = await openCard(jwe)
    const card = parseCardPayload(plaintext)
    checkTime(card.generationtime)
    return { header, card }
  }

  async function decryptSecurityCode(jwe: string, options: SecurityCodeOptions = {}): Promise<DecryptedSecurityCodeJwe> {
    const { header, plaintext } = await openCard(jwe)
    const securityCode = parseSecurityCodePayload(plaintext, options.codeSize)
    checkTime(securityCode.generationtime)
    return { header, securityCode }
  }

  return { decrypt, decryptSecurityCode, open, keyBits: keys.modulusBits }
}

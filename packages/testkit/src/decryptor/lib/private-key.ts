import { buf, subtle } from './subtle.js'

/** A PKCS#8 private key: PEM text ("BEGIN PRIVATE KEY") or DER bytes. */
export type PrivateKeyInput = string | Uint8Array

function pkcs8Bytes(input: PrivateKeyInput): Uint8Array {
  if (typeof input !== 'string') return input
  const match = /-----BEGIN PRIVATE KEY-----([\s\S]*?)-----END PRIVATE KEY-----/.exec(input)
  if (!match) throw new TypeError('private key: expected PKCS#8 PEM ("BEGIN PRIVATE KEY") or DER bytes')
  const binary = atob(match[1]!.replace(/\s+/g, ''))
  return Uint8Array.from(binary, (c) => c.charCodeAt(0))
}

/** The key imported once per OAEP hash: WebCrypto binds the hash to the key. */
export interface OaepKeys {
  readonly sha256: CryptoKey
  readonly sha1: CryptoKey
  readonly modulusBits: number
  /**
   * The engine's RSA-OAEP decryption drops the message's leading zero bytes (WebKitGTK through
   * libgcrypt gives it back as an integer), where RFC 8017 7.1.2 returns all mLen octets.
   */
  readonly dropsLeadingZeros: boolean
}

/** Encrypts a message that starts with a zero byte and decrypts it: does the engine give all of it back? */
async function probeLeadingZeros(der: Uint8Array<ArrayBuffer>, sha256: CryptoKey): Promise<boolean> {
  const exportable = await subtle().importKey('pkcs8', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, true, ['decrypt'])
  const { n, e } = await subtle().exportKey('jwk', exportable)
  const publicKey = await subtle().importKey('jwk', { kty: 'RSA', n: n!, e: e! }, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt'])
  const message = new Uint8Array(32).fill(1)
  message[0] = 0
  const back = await subtle().decrypt({ name: 'RSA-OAEP' }, sha256, await subtle().encrypt({ name: 'RSA-OAEP' }, publicKey, message))
  return back.byteLength < message.length
}

export async function importOaepKeys(input: PrivateKeyInput): Promise<OaepKeys> {
  const der = buf(pkcs8Bytes(input))
  const load = (hash: string) => subtle().importKey('pkcs8', der, { name: 'RSA-OAEP', hash }, false, ['decrypt'])
  let sha256: CryptoKey
  let sha1: CryptoKey
  try {
    ;[sha256, sha1] = await Promise.all([load('SHA-256'), load('SHA-1')])
  } catch (error) {
    throw new TypeError('private key: not an RSA PKCS#8 key', { cause: error })
  }
  return {
    sha256,
    sha1,
    modulusBits: (sha256.algorithm as RsaHashedKeyAlgorithm).modulusLength,
    dropsLeadingZeros: await probeLeadingZeros(der, sha256),
  }
}

import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'

// Elsewhere than Node (Deno, Bun, workers): @noble/hashes, plain JS and synchronous (WebCrypto's
// per-call job and promise cost more than the hash on a 1 KB body). On Node see `../node/hashes.ts`.

const encoder = new TextEncoder()
const utf8 = (text: string | Uint8Array) => (typeof text === 'string' ? encoder.encode(text) : text)

/** Lowercase hex SHA-256 of the bytes (UTF-8 for a string). */
export const sha256Hex = (data: string | Uint8Array): string => bytesToHex(sha256(utf8(data)))

/** Lowercase hex HMAC-SHA256 of the UTF-8 message with the UTF-8 key. */
export const hmacSha256Hex = (key: string, message: string): string => bytesToHex(hmac(sha256, utf8(key), utf8(message)))

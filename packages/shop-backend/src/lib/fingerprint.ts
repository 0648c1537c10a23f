import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'

/**
 * SHA-256 (hex) of a JSON value: how a repeated submission is recognised without keeping the card
 * blob. Synchronous plain JS: a WebCrypto digest per request cost more than the hash itself.
 */
export function fingerprintOf(value: unknown): string {
  return bytesToHex(sha256(utf8ToBytes(JSON.stringify(value))))
}

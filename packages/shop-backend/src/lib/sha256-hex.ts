import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'

// Elsewhere than Node: @noble/hashes, plain JS and synchronous (a WebCrypto digest per request cost
// more than the hash itself). On Node see `../node/sha256-hex.ts`.

/** Lowercase hex SHA-256 of the UTF-8 text. */
export const sha256Hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)))

import { createHash, createHmac } from 'node:crypto'

// On Node (package.json `imports`, condition `node`): node:crypto, a fifth of @noble/hashes' time
// on a 1 KB body (1.4 µs against 7.5), the same digests.

/** Lowercase hex SHA-256 of the bytes (UTF-8 for a string). */
export const sha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex')

/** Lowercase hex HMAC-SHA256 of the UTF-8 message with the UTF-8 key. */
export const hmacSha256Hex = (key: string, message: string): string => createHmac('sha256', key).update(message).digest('hex')

import { sha256Hex } from '#sha256-hex'

/**
 * SHA-256 (hex) of a JSON value: how a repeated submission is recognised without keeping the card
 * blob. Synchronous (`#sha256-hex`: node:crypto on Node, @noble/hashes elsewhere).
 */
export function fingerprintOf(value: unknown): string {
  return sha256Hex(JSON.stringify(value))
}

import { undecryptable } from '../errors.js'

const ALPHABET = /^[A-Za-z0-9_-]*$/

/** base64url without padding (RFC 7515 section 2), as JOSE writes every part. */
export function encodeBase64url(bytes: Uint8Array): string {
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/**
 * Strict base64url (RFC 7515 section 2): no padding, no "+" or "/", no whitespace, and canonical,
 * so that two different strings never decode to the same bytes.
 */
export function decodeBase64url(segment: string, name: string): Uint8Array {
  if (!ALPHABET.test(segment) || segment.length % 4 === 1) throw undecryptable(`${name}: not base64url without padding`)
  const binary = atob(segment.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (segment.length % 4)) % 4))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  if (encodeBase64url(bytes) !== segment) throw undecryptable(`${name}: non-canonical base64url`)
  return bytes
}

/**
 * Request signing with `service_secret` (spec: Authentication 1; the spec does not show a scheme, so
 * this one is ours). Hashing is synchronous: node:crypto on Node, @noble/hashes elsewhere (`#hashes`).
 *
 *   message = "v1" LF timestamp LF nonce LF METHOD LF path-with-query LF hex(SHA-256(body))
 *   X-Signature: v1=hex(HMAC-SHA256(UTF-8(service_secret), UTF-8(message)))
 */

import { hmacSha256Hex, sha256Hex as bodyHash } from '#hashes'

/** The scheme's version: the first line of the signed text and the signature's prefix. */
export const SIGNATURE_VERSION = 'v1'
/** Requests more than this far from the receiver's clock are refused, either way. */
export const MAX_SIGNATURE_SKEW_SECONDS = 300

/** The four request headers of a signed call. */
export const SIGNATURE_HEADERS = Object.freeze({
  /** The shop's id. */
  shop: 'x-shop-id',
  /** Unix seconds when the request was signed. */
  timestamp: 'x-signature-timestamp',
  /** A fresh random value per request, refused when seen again. */
  nonce: 'x-signature-nonce',
  /** `v1=` and the HMAC in hex. */
  signature: 'x-signature',
})

/** 16 to 64 characters of [A-Za-z0-9_-]; unique per request within the skew window. */
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/

/** Lowercase hex SHA-256 of the body as sent (UTF-8 for a string). */
export async function sha256Hex(body: string | Uint8Array): Promise<string> {
  return bodyHash(body)
}

/** What a signature covers. */
export interface SignedParts {
  /** Unix seconds; a string is signed exactly as given (the header text as sent). */
  readonly timestamp: number | string
  /** See {@link NONCE_PATTERN}. */
  readonly nonce: string
  /** HTTP method; signed upper-case. */
  readonly method: string
  /** Path with query exactly as sent, e.g. "/shopplatform/processor/updated-payments?after=5". */
  readonly pathWithQuery: string
  /** The raw body bytes as sent; empty for none. */
  readonly body: string | Uint8Array
}

/** The exact text that is signed, given the lowercase hex SHA-256 of the body (for a receiver that hashes its own way). */
export function canonicalText(parts: Omit<SignedParts, 'body'>, bodySha256Hex: string): string {
  return [SIGNATURE_VERSION, String(parts.timestamp), parts.nonce, parts.method.toUpperCase(), parts.pathWithQuery, bodySha256Hex].join(
    '\n',
  )
}

/** The exact text that is signed. */
export async function canonicalMessage(parts: SignedParts): Promise<string> {
  return canonicalText(parts, bodyHash(parts.body))
}

/** The `x-signature` value for the parts: `v1=` and hex HMAC-SHA256 with the secret. */
export async function signatureOf(secret: string, parts: SignedParts): Promise<string> {
  const message = canonicalText(parts, bodyHash(parts.body))
  return `${SIGNATURE_VERSION}=${hmacSha256Hex(secret, message)}`
}

/** 32 hex characters from the platform's CSPRNG (a v4 UUID's, 122 random bits; randomUUID draws from a pool, getRandomValues does not). */
export function newNonce(): string {
  return crypto.randomUUID().replaceAll('-', '')
}

/** The four headers for one request. */
export async function signRequest(
  credentials: { readonly shopId: string; readonly serviceSecret: string },
  request: { readonly method: string; readonly pathWithQuery: string; readonly body: string | Uint8Array },
  now: Date = new Date(),
): Promise<Record<string, string>> {
  const parts = { ...request, timestamp: Math.floor(now.getTime() / 1000), nonce: newNonce() }
  return {
    [SIGNATURE_HEADERS.shop]: credentials.shopId,
    [SIGNATURE_HEADERS.timestamp]: String(parts.timestamp),
    [SIGNATURE_HEADERS.nonce]: parts.nonce,
    [SIGNATURE_HEADERS.signature]: await signatureOf(credentials.serviceSecret, parts),
  }
}

import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import {
  canonicalText,
  MAX_SIGNATURE_SKEW_SECONDS,
  NONCE_PATTERN,
  SIGNATURE_HEADERS,
  SIGNATURE_VERSION,
  type SignedParts,
} from '@card-jwe/service-client/signing'
import { SandboxError } from './errors.js'
import { nowSeconds } from './lib/clock.js'
import type { SandboxContext, ShopRow } from './context.js'
import type { RequestContext } from './http/handler.js'

/**
 * The signature the request should carry (the scheme of `@card-jwe/service-client/signing`). node:crypto, synchronously: a
 * few hundred bytes hash in microseconds, where WebCrypto's two thread-pool jobs per request cost
 * the event loop more than the hashing (the service client signs with WebCrypto; tests compare both).
 */
function expectedSignature(secret: string, parts: SignedParts): string {
  const bodyHash = createHash('sha256').update(parts.body).digest('hex')
  return `${SIGNATURE_VERSION}=${createHmac('sha256', secret).update(canonicalText(parts, bodyHash)).digest('hex')}`
}

/**
 * Checks a signed request (the scheme of `@card-jwe/service-client/signing`) and returns the shop that signed it: all four
 * headers present, the timestamp within five minutes of our clock, the HMAC right (compared in
 * constant time), and the nonce never seen before from that shop.
 */
export async function authenticate(c: RequestContext, context: SandboxContext): Promise<ShopRow> {
  const shopId = c.req.header(SIGNATURE_HEADERS.shop)
  const timestamp = c.req.header(SIGNATURE_HEADERS.timestamp)
  const nonce = c.req.header(SIGNATURE_HEADERS.nonce)
  const signature = c.req.header(SIGNATURE_HEADERS.signature)
  if (!shopId || !timestamp || !nonce || !signature)
    throw new SandboxError(
      'SIGNATURE_MISSING',
      'request is not signed: x-shop-id, x-signature-timestamp, x-signature-nonce and x-signature are required',
    )
  if (!/^\d{1,12}$/.test(timestamp) || !NONCE_PATTERN.test(nonce))
    throw new SandboxError('SIGNATURE_MALFORMED', 'signature headers: timestamp must be Unix seconds, nonce 16-64 of [A-Za-z0-9_-]')
  const now = nowSeconds(context)
  if (Math.abs(now - Number(timestamp)) > MAX_SIGNATURE_SKEW_SECONDS)
    throw new SandboxError('SIGNATURE_STALE', `signature timestamp more than ${MAX_SIGNATURE_SKEW_SECONDS} seconds from the service clock`)

  const shop = context.shops.find(shopId)
  // An unknown shop gets the same answer as a wrong signature: no hint which part was wrong.
  // The timestamp is signed as the text that was sent (as the client signs it), leading zeros and all.
  const expected = expectedSignature(shop?.service_secret ?? 'unknown-shop', {
    timestamp,
    nonce,
    method: c.req.method,
    // The path and query exactly as received, as the client signed them; not as the URL parser rewrites them.
    pathWithQuery: c.env.incoming.url ?? '/',
    body: c.var.body,
  })
  const given = Buffer.from(signature)
  const wanted = Buffer.from(expected)
  if (!shop || given.length !== wanted.length || !timingSafeEqual(given, wanted))
    throw new SandboxError('SIGNATURE_INVALID', 'signature does not match')

  const fresh = context.nonces.spend(shop.shop_id, nonce, Number(timestamp) + 2 * MAX_SIGNATURE_SKEW_SECONDS, now)
  if (!fresh) throw new SandboxError('SIGNATURE_REPLAYED', 'this nonce was already used')
  return shop
}

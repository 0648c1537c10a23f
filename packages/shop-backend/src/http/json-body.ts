import { declaredBodyLength, parseJsonBody } from '@card-jwe/payment-validator'
import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { z } from 'zod'
import { ShopBackendError } from '../errors.js'
import type { BackendEnv } from './backend-env.js'

/**
 * At most `maxBytes`. A declared length is checked here and bounds the body (the HTTP parser reads no
 * further), so the body is then read whole, which @hono/node-server serves from the socket without a
 * web stream (a third of a request's cost); hono's `bodyLimit` reads `.body` first, so it takes only
 * the chunked rest, cut off as it streams.
 */
function limitBody(maxBytes: number): MiddlewareHandler<BackendEnv> {
  const tooLarge = () => new ShopBackendError('BODY_TOO_LARGE', `body: larger than ${maxBytes} bytes`)
  const streamed = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLarge()
    },
  })
  return async (c, next) => {
    const declared = declaredBodyLength(c.req.raw.headers)
    if (declared === undefined) return streamed(c, next)
    if (declared > maxBytes) throw tooLarge()
    await next()
  }
}

/**
 * The middleware of every JSON POST: JSON only (no other page can send it without a CORS preflight:
 * the demo's cross-site finding), then at most `maxBytes`.
 */
export function jsonBody(maxBytes: number): MiddlewareHandler<BackendEnv> {
  const limit = limitBody(maxBytes)
  return async (c, next) => {
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
    if (type !== 'application/json') throw new ShopBackendError('UNSUPPORTED_MEDIA_TYPE', 'content-type: must be application/json')
    return limit(c, next)
  }
}

/** The body parsed with `schema`; 400 `INVALID_BODY` names each field and rule, never a value. */
export async function readJsonBody<S extends z.ZodType>(c: Context<BackendEnv>, schema: S, maxBytes: number): Promise<z.output<S>> {
  const parsed = parseJsonBody(new Uint8Array(await c.req.arrayBuffer()), schema, { maxBytes })
  if (!parsed.ok) throw new ShopBackendError('INVALID_BODY', parsed.error.message, parsed.error.issues)
  return parsed.value
}

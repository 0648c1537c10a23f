import { declaredBodyLength, redactPathForLog } from '@card-jwe/payment-validator'
import { Hono, type MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { notFound, SandboxError } from '../errors.js'
import { SANDBOX_ROUTES } from '../routes.js'
import type { SandboxContext } from '../context.js'
import type { SandboxEnv } from './handler.js'
import { json } from './json.js'
import { envelopeOf } from './refusal-of-code.js'

/** Every body the service takes is small; anything above this is refused unread. */
export const MAX_BODY_BYTES = 64 * 1024

/** A route's path template in Hono's syntax: a `{name}` segment is [A-Za-z0-9_-]{1,64}. */
const honoPath = (template: string) => template.replace(/\{(\w+)\}/g, ':$1{[A-Za-z0-9_-]{1,64}}')

/**
 * At most `maxBytes`. A declared length is checked here and bounds the body (the HTTP parser reads no
 * further), so the route then reads it whole, which @hono/node-server serves from the socket without
 * a web stream; hono's `bodyLimit` reads `.body` first (building that stream: a third of the
 * sandbox's rate), so it takes only the chunked rest, cut off as it streams.
 */
function limitBody(maxBytes: number): MiddlewareHandler<SandboxEnv> {
  const tooLarge = () => new SandboxError('BODY_TOO_LARGE', `body larger than ${maxBytes} bytes`)
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

/** The URL's path as sent: what follows the origin, up to a query (a URL parse per request costs more). */
function pathAsSent(request: Request): string {
  const url = request.url
  const start = url.indexOf('/', url.indexOf('://') + 3)
  if (start === -1) return '/'
  const query = url.indexOf('?', start)
  return url.slice(start, query === -1 ? undefined : query)
}

/** What an error is answered with: a SandboxError as it is, anything else 500 INTERNAL. */
const refusalOf = (error: Error) => (error instanceof SandboxError ? error : new SandboxError('INTERNAL', 'internal error'))

const methodNotAllowed = (method: string) => new SandboxError('METHOD_NOT_ALLOWED', `${method} is not allowed on this path`)

/**
 * The sandbox as a Hono app: each route of routes.ts on its method, any other method on its path
 * 405, any other path 404. A route's body is limited, then read once: the signature covers those bytes.
 */
export function createSandboxApp(context: SandboxContext): Hono<SandboxEnv> {
  // Routes match the path as sent, not percent-decoded: as the signature covers it.
  const app = new Hono<SandboxEnv>({ getPath: pathAsSent })
  app.onError((error) => {
    const refusal = refusalOf(error)
    const envelope = envelopeOf(refusal)
    const retryAfter = refusal.retryAfterSeconds === undefined ? {} : { 'retry-after': String(refusal.retryAfterSeconds) }
    return json(envelope, envelope.status, retryAfter)
  })
  app.use(async (c, next) => {
    await next()
    c.header('cache-control', 'no-store')
    c.header('x-content-type-options', 'nosniff')
    // A refusal's code; of a foreign error its kind only, as its message or stack could quote request data.
    const error = c.error
    const refusal = error ? ` ${refusalOf(error).code}${error instanceof SandboxError ? '' : ` (${error.name})`}` : ''
    context.log(`${c.req.method} ${redactPathForLog(c.req.path)} ${c.res.status}${refusal}`)
  })
  // No answer leaves before what it tells of is on disk: the writes before it, its own or another's.
  app.use(async (_c, next) => {
    await next()
    await context.syncWritten()
  })

  // On each route rather than on all: a wrong path or method is answered before any body is looked at.
  const limit = limitBody(MAX_BODY_BYTES)
  for (const { method, path, handler } of SANDBOX_ROUTES) {
    app.on(method, honoPath(path), limit, async (c) => {
      // Hono runs a GET route for HEAD too; the sandbox answers only the method a route names.
      if (c.req.method !== method) throw methodNotAllowed(c.req.method)
      c.set('body', Buffer.from(await c.req.arrayBuffer()))
      return handler(c, context)
    })
  }
  for (const path of new Set(SANDBOX_ROUTES.map((route) => route.path))) {
    app.all(honoPath(path), (c) => {
      throw methodNotAllowed(c.req.method)
    })
  }
  app.all('*', () => {
    throw notFound('path')
  })
  return app
}

import { getRequestListener } from '@hono/node-server'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ShopBackend } from '../shop-backend-types.js'

/**
 * The parts of a Koa 3 context the middleware reads and sets; a Koa `Context` is one. `request.body`
 * and `request.rawBody` are what a body parser mounted first left, if one ran: `koa-bodyparser` and
 * `@koa/bodyparser` leave both (the parsed value and the text as it came), `koa-body` the parsed value.
 */
export interface KoaLikeContext {
  /** Node's request: the stream the body is read from when no parser read it first. */
  readonly req: IncomingMessage
  /** Node's response, written through `@hono/node-server`. */
  readonly res: ServerResponse
  /** The request's path, without the query. */
  readonly path: string
  /** Koa's client address: the socket's, or with `app.proxy` the `X-Forwarded-For` entry `maxIpsCount` leads to. */
  readonly ip: string
  /** Koa's request, where a body parser leaves what it made of the body. */
  readonly request: {
    /** The parsed body (or a Buffer, a string), if a body parser ran. */
    readonly body?: unknown
    /** The body's text as it came, if the body parser kept it. */
    readonly rawBody?: unknown
  }
  /** Set to `false` here: the answer is written to `res` directly, bypassing Koa's response handling. */
  respond?: boolean | undefined
}

/** Options of {@link shopBackendMiddleware}. */
export interface KoaMiddlewareOptions {
  /** The shopper's address; default Koa's `ctx.ip` (which follows `app.proxy` and `maxIpsCount`), else the socket's. */
  readonly ip?: (ctx: KoaLikeContext) => string | undefined
}

/** The Koa 3 middleware {@link shopBackendMiddleware} returns: `app.use(shopBackendMiddleware(backend))`. */
export type KoaShopBackendMiddleware = (ctx: KoaLikeContext, next: () => Promise<unknown>) => Promise<void>

type WithRawBody = IncomingMessage & { rawBody?: Buffer }

/**
 * The bytes of a body a parser mounted before us already read, or undefined when the stream is
 * still unread (no parser, or one that skipped this content type): then the back end reads the
 * stream. The text a parser kept is used as it came; a Buffer or a string body as it is; only a
 * parsed value is written out again as JSON (the same values get the same answer: no endpoint of
 * the back end checks a signature over the body).
 */
function bytesAlreadyRead(ctx: KoaLikeContext): Buffer | undefined {
  const { body, rawBody } = ctx.request
  if (Buffer.isBuffer(body)) return body
  const { req } = ctx
  if (!(req.readableEnded || req.readableDidRead)) return undefined
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8')
  if (typeof body === 'string') return Buffer.from(body, 'utf8')
  return Buffer.from(body === undefined ? '' : JSON.stringify(body), 'utf8')
}

/**
 * The back end as a Koa 3 middleware, used at the app's root beside your own middleware:
 * `app.use(shopBackendMiddleware(backend))`. It answers the back end's paths (`backend.paths`) and
 * passes every other request on (`next()`). It works whether or not a body parser ran before it;
 * the HTTP plumbing is `@hono/node-server`'s, as for `toNodeListener`, so the answer bypasses Koa's
 * response handling (`ctx.respond = false`) and middleware after it does not run for those paths.
 */
export function shopBackendMiddleware(backend: ShopBackend, options: KoaMiddlewareOptions = {}): KoaShopBackendMiddleware {
  const ipOf = options.ip ?? ((ctx: KoaLikeContext) => ctx.ip || ctx.req.socket.remoteAddress)
  const contexts = new WeakMap<IncomingMessage, KoaLikeContext>()
  const listener = getRequestListener((request, env) => {
    const ctx = contexts.get(env.incoming as IncomingMessage)
    return backend.fetch(request, { ip: ctx ? ipOf(ctx) : env.incoming.socket.remoteAddress })
  })
  return async (ctx, next) => {
    if (!backend.handles(ctx.path)) {
      await next()
      return
    }
    const bytes = bytesAlreadyRead(ctx)
    // @hono/node-server reads `rawBody` instead of the stream when it is there.
    if (bytes !== undefined) (ctx.req as WithRawBody).rawBody = bytes
    contexts.set(ctx.req, ctx)
    ctx.respond = false
    await listener(ctx.req, ctx.res)
  }
}

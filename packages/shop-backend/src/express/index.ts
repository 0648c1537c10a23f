import { getRequestListener } from '@hono/node-server'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestInfo, ShopBackend } from '../shop-backend-types.js'

/**
 * The parts of Express 5's request the handler reads; an Express `Request` is one. `body` is what a
 * body parser made of the body, if one ran: a Buffer (`express.raw()`), a string (`express.text()`)
 * or parsed JSON (`express.json()`); `ip` is the client's address as Express's `trust proxy` sees it.
 */
export type ExpressLikeRequest = IncomingMessage & {
  /** What a body parser that ran first made of the body: used as the body when the stream is already read. */
  body?: unknown
  /** Express's client address (`trust proxy` applied). */
  readonly ip?: string | undefined
}

/** Options of {@link shopBackendHandler}. */
export interface ExpressHandlerOptions {
  /** The shopper's address; default Express's `req.ip` (which follows `trust proxy`), else the socket's. */
  readonly ip?: (req: ExpressLikeRequest) => string | undefined
}

/** The Express 5 middleware {@link shopBackendHandler} returns: `app.use(shopBackendHandler(backend))`. */
export type ExpressShopBackendHandler = (req: ExpressLikeRequest, res: ServerResponse, next: (error?: unknown) => void) => void

type WithRawBody = ExpressLikeRequest & { rawBody?: Buffer; _body?: boolean }

/**
 * The bytes of a body a parser mounted before us already read, or undefined when the stream is
 * still unread. `express.raw()` leaves them as they came; `express.text()` as a string; after
 * `express.json()` only the parsed value is left, and it is written out again as JSON: none of the
 * back end's endpoints checks a signature over the body (the shop-side ones are HTTP Basic), and
 * its checks read the JSON's values, so the same values give the same answer.
 */
function bytesAlreadyRead(req: WithRawBody): Buffer | undefined {
  const { body } = req
  if (Buffer.isBuffer(body)) return body
  const streamRead = req._body === true || req.readableEnded || req.readableDidRead
  if (!streamRead) return undefined
  if (typeof body === 'string') return Buffer.from(body, 'utf8')
  return Buffer.from(body === undefined ? '' : JSON.stringify(body), 'utf8')
}

/**
 * The back end as an Express 5 middleware, mounted at the app's root beside your own routes:
 * `app.use(shopBackendHandler(backend))`. It answers the back end's paths (`backend.paths`) and
 * passes every other request on. Mount it before any body parser: a parser's error on a broken body
 * quotes it, and Express's default handler logs it (raw card fields from a broken page). It still
 * works after one (see the README); the HTTP plumbing is `@hono/node-server`'s, as for `toNodeListener`.
 */
export function shopBackendHandler(backend: ShopBackend, options: ExpressHandlerOptions = {}): ExpressShopBackendHandler {
  const ipOf = options.ip ?? ((req: ExpressLikeRequest) => req.ip ?? req.socket.remoteAddress)
  const listener = getRequestListener((request, env) => {
    const info: RequestInfo = { ip: ipOf(env.incoming as ExpressLikeRequest) }
    return backend.fetch(request, info)
  })
  return (req, res, next) => {
    const path = new URL(req.url ?? '/', 'http://shop').pathname
    if (!backend.handles(path)) return next()
    const raw = req as WithRawBody
    const bytes = bytesAlreadyRead(raw)
    // @hono/node-server reads `rawBody` instead of the stream when it is there.
    if (bytes !== undefined) raw.rawBody = bytes
    listener(req, res).catch(next)
  }
}

import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { ShopBackend } from '../shop-backend-types.js'

/** Options of {@link shopBackendPlugin}: `app.register(shopBackendPlugin, { backend })`. */
export interface ShopBackendPluginOptions {
  /** From `createShopBackend`. */
  readonly backend: ShopBackend
  /**
   * Fastify's own cap on a body of the back end's routes, in bytes; default 1 MiB. The back end's
   * own limit (64 KiB unless `maxBodyBytes` says otherwise) answers first, with its 413.
   */
  readonly bodyLimit?: number
  /** The shopper's address; default Fastify's `request.ip` (which follows `trustProxy`). */
  readonly ip?: (request: FastifyRequest) => string | undefined
}

function webRequest(request: FastifyRequest): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else if (value !== undefined) headers.set(name, value)
  }
  const url = new URL(request.raw.url ?? '/', `http://${request.headers.host ?? 'shop'}`)
  const body = request.method === 'GET' || request.method === 'HEAD' || !Buffer.isBuffer(request.body) ? undefined : request.body
  return new Request(url, { method: request.method, headers, ...(body ? { body: new Uint8Array(body) } : {}) })
}

/**
 * The back end as a Fastify 5 plugin: it routes the back end's paths (`backend.paths`) to
 * `backend.fetch`, each with the body's raw bytes. Inside the plugin a body of any type is kept as a
 * Buffer (the back end checks the type and the size itself), so your app's own parsers and routes
 * are unchanged.
 */
export const shopBackendPlugin: FastifyPluginAsync<ShopBackendPluginOptions> = async (app, options) => {
  if (typeof options?.backend?.fetch !== 'function')
    throw new TypeError(
      "shopBackendPlugin: register it with { backend }, createShopBackend's result: app.register(shopBackendPlugin, { backend })",
    )
  // The back end routes whole paths (backend.paths): under a prefix every one of them would be a 404.
  if (app.prefix)
    throw new TypeError(
      `shopBackendPlugin: registered under the prefix ${app.prefix}; register it at the root, ` +
        "and move its routes with createShopBackend's paths",
    )
  const { backend } = options
  const ip = options.ip ?? ((request: FastifyRequest) => request.ip)
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: options.bodyLimit ?? 1024 * 1024 }, (_request, body, done) =>
    done(null, body),
  )
  const handler = async (request: FastifyRequest, reply: FastifyReply) =>
    reply.send(await backend.fetch(webRequest(request), { ip: ip(request) }))
  for (const path of backend.paths) app.all(path, handler)
}

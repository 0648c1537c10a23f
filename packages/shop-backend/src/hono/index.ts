import type { Context, Env, Hono, Schema } from 'hono'
import type { ShopBackend } from '../shop-backend-types.js'

/** Options of {@link mountShopBackend}. */
export interface MountOptions {
  /** The shopper's address; default the node-server socket's (`c.env.incoming`), else none. */
  readonly ip?: (c: Context) => string | undefined
}

function socketAddress(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined
  return env?.incoming?.socket?.remoteAddress
}

/**
 * Mounts the back end's paths (the spec's shop-side endpoints and the checkout API) on a Hono 4
 * app, beside the shop's own routes: each answers through `backend.fetch`.
 */
export function mountShopBackend<E extends Env, S extends Schema, B extends string>(
  app: Hono<E, S, B>,
  backend: ShopBackend,
  options: MountOptions = {},
): Hono<E, S, B> {
  const ip = options.ip ?? socketAddress
  for (const path of backend.paths) app.all(path, (c) => backend.fetch(c.req.raw, { ip: ip(c) }))
  return app
}

import type { Context, Env, Hono, Schema } from 'hono'
import type { ShopBackend } from '../shop-backend-types.js'

/** Options of {@link mountShopBackend}. */
export interface MountOptions {
  /**
   * The shopper's address; default the connection's as the runtime's server gives it to Hono
   * (`@hono/node-server`'s socket, `Deno.serve`'s `remoteAddr`, `Bun.serve`'s `requestIP`), else none.
   */
  readonly ip?: (c: Context) => string | undefined
}

/** What each runtime's server hands Hono as `c.env`: only the parts that name the connection's address. */
interface ServerEnv {
  readonly incoming?: { readonly socket?: { readonly remoteAddress?: string } }
  readonly remoteAddr?: { readonly hostname?: string }
  readonly requestIP?: (request: Request) => { readonly address?: string } | null
}

/** The address in what the runtime's server handed Hono: node-server's socket, Deno's info, or Bun's server. */
function addressIn(env: ServerEnv | undefined, request: Request): unknown {
  if (env?.incoming) return env.incoming.socket?.remoteAddress
  if (env?.remoteAddr) return env.remoteAddr.hostname
  // A method of Bun's server: called on it.
  return typeof env?.requestIP === 'function' ? env.requestIP(request)?.address : undefined
}

function socketAddress(c: Context): string | undefined {
  const address = addressIn(c.env as ServerEnv | undefined, c.req.raw)
  // Another platform's env (bindings of its own under these names) gives no address, never a wrong type.
  return typeof address === 'string' ? address : undefined
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

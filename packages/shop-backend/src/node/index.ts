import { getRequestListener } from '@hono/node-server'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { dirname } from 'node:path'
import type { ShopBackend } from '../create-shop-backend.js'

/** Options of {@link toNodeListener}. */
export interface NodeListenerOptions {
  /** Requests the back end does not serve; default a 404. */
  readonly fallback?: (incoming: IncomingMessage, outgoing: ServerResponse) => void
}

/**
 * The back end as a node:http request listener, through `@hono/node-server`'s maintained plumbing
 * (body streaming, headers, aborts): `createServer(toNodeListener(backend))`. The shopper's address
 * is the socket's; behind a proxy, mount `backend.fetch` yourself with the address your proxy vouches for.
 */
export function toNodeListener(backend: ShopBackend, options: NodeListenerOptions = {}) {
  const listener = getRequestListener((request, env) => backend.fetch(request, { ip: env.incoming.socket.remoteAddress }))
  return (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const path = new URL(incoming.url ?? '/', 'http://shop').pathname
    if (!backend.handles(path) && options.fallback) options.fallback(incoming, outgoing)
    else void listener(incoming, outgoing)
  }
}

/**
 * The secret key from a file of its own (mode 0600), made on first use: keep it outside the data
 * the store backs up and outside anything served.
 */
export async function loadOrCreateSecretKey(path: string): Promise<Uint8Array> {
  try {
    const key = Buffer.from((await readFile(path, 'utf8')).trim(), 'base64')
    if (key.length !== 32) throw new Error(`${path}: not a 256-bit key`)
    return new Uint8Array(key)
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code !== 'ENOENT') throw error
  }
  const key = crypto.getRandomValues(new Uint8Array(32))
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, Buffer.from(key).toString('base64'), { mode: 0o600, flag: 'wx' })
  await chmod(path, 0o600)
  return key
}

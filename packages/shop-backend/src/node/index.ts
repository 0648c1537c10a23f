import { getRequestListener } from '@hono/node-server'
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { dirname } from 'node:path'
import type { ShopBackend } from '../shop-backend-types.js'
import { forwardedClient, trustedProxies } from './forwarded-for.js'

/** Options of {@link toNodeListener}. */
export interface NodeListenerOptions {
  /** Requests the back end does not serve; default a 404. */
  readonly fallback?: (incoming: IncomingMessage, outgoing: ServerResponse) => void
  /**
   * The proxies in front of this server whose `X-Forwarded-For` is believed: their addresses
   * (`10.0.0.7`, `::1`) and subnets (`10.0.0.0/8`). A request from one of them has the shopper's
   * address taken from the header: its right-most entry that is not a trusted proxy. Any other
   * request, and every request without this option, has the socket's address; the header is then
   * never read, as a client can write anything in it. An entry that is not an address or subnet
   * throws a `TypeError` here.
   */
  readonly trustProxy?: readonly string[]
}

/**
 * The back end as a node:http request listener, through `@hono/node-server`'s maintained plumbing
 * (body streaming, headers, aborts): `createServer(toNodeListener(backend))`. The shopper's address
 * is the socket's; behind a proxy, name it in `trustProxy`.
 */
export function toNodeListener(backend: ShopBackend, options: NodeListenerOptions = {}) {
  const isTrusted = options.trustProxy ? trustedProxies(options.trustProxy) : undefined
  const ipOf = (incoming: IncomingMessage) =>
    isTrusted
      ? forwardedClient(incoming.socket.remoteAddress, incoming.headers['x-forwarded-for'], isTrusted)
      : incoming.socket.remoteAddress
  const listener = getRequestListener((request, env) => backend.fetch(request, { ip: ipOf(env.incoming as IncomingMessage) }))
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
  const existing = await readKey(path)
  if (existing) return existing
  const key = crypto.getRandomValues(new Uint8Array(32))
  await mkdir(dirname(path), { recursive: true })
  // Written whole under another name, then linked into place: instances that start together on a
  // shared folder never read half a key, and the one that links second reads the first one's key.
  const draft = `${path}.${crypto.randomUUID()}.tmp`
  try {
    await writeFile(draft, Buffer.from(key).toString('base64'), { mode: 0o600, flag: 'wx' })
    await chmod(draft, 0o600)
    await link(draft, path)
    return key
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code !== 'EEXIST') throw error
    const theirs = await readKey(path)
    if (!theirs) throw error
    return theirs
  } finally {
    await unlink(draft).catch(() => {})
  }
}

/** The key in the file, or undefined when there is no file. */
async function readKey(path: string): Promise<Uint8Array | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') return undefined
    throw error
  }
  const key = Buffer.from(text.trim(), 'base64')
  if (key.length !== 32) throw new Error(`${path}: not a 256-bit key`)
  return new Uint8Array(key)
}

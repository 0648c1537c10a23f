import { once } from 'node:events'
import type { RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ShopBackend } from '../../src/index.js'
import { toNodeListener } from '../../src/node/index.js'
import { listen } from './listen.js'

/** What `Deno.serve` hands a handler beside the request. */
interface DenoInfo {
  readonly remoteAddr: { readonly hostname: string }
}

/** What `Bun.serve` hands a handler beside the request: the server. */
interface BunServer {
  requestIP(request: Request): { address: string } | null
}

/** What this file uses of `Deno.serve` (Deno 2), typed here: the tests' tsconfig has no Deno types. */
interface DenoServe {
  serve(
    options: { hostname: string; port: number; onListen(): void },
    handler: (request: Request, info: DenoInfo) => Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void> }
}

/** What this file uses of `Bun.serve` (Bun 1), typed here for the same reason. */
interface BunServe {
  serve(options: { hostname: string; port: number; fetch(request: Request, server: BunServer): Promise<Response> }): {
    port: number
    stop(closeActiveConnections: boolean): Promise<void>
  }
}

export interface Served {
  readonly url: string
  close(): Promise<void>
}

/** `handler` on Deno's or Bun's own server, given what that server hands a fetch handler; undefined on Node. */
function ownServer(handler: (request: Request, env: DenoInfo | BunServer) => Promise<Response>): Served | undefined {
  const { Deno: deno, Bun: bun } = globalThis as { Deno?: DenoServe; Bun?: BunServe }
  if (deno) {
    const server = deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, handler)
    return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() }
  }
  if (bun) {
    const server = bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handler })
    return { url: `http://127.0.0.1:${server.port}`, close: () => server.stop(true) }
  }
  return undefined
}

/** `backend()` on this runtime's own server (Node: the package's adapter), read at each request: the URL comes first. */
export async function serveHere(backend: () => ShopBackend): Promise<Served> {
  const own = ownServer((request, env) =>
    backend().fetch(request, { ip: 'remoteAddr' in env ? env.remoteAddr.hostname : env.requestIP(request)?.address }),
  )
  if (own) return own
  let listener: RequestListener | undefined
  const { url, close } = await listen((req, res) => {
    listener ??= toNodeListener(backend())
    listener(req, res)
  })
  return { url, close }
}

/** A Hono app's `fetch` on this runtime's server as a shop runs it: `Deno.serve`, `Bun.serve`, or `@hono/node-server`. */
export async function serveHonoHere(fetch: (request: Request, env: unknown) => Response | Promise<Response>): Promise<Served> {
  const own = ownServer(async (request, env) => fetch(request, env))
  if (own) return own
  const { serve } = await import('@hono/node-server')
  const server = serve({ fetch, hostname: '127.0.0.1', port: 0 })
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((closed) => server.close(() => closed())) }
}

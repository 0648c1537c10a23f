import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A loopback proxy in front of the sandbox, to make a bad network on purpose:
 * - `pass`: forwards everything;
 * - `lose-answers`: forwards a matching request, lets the sandbox act, then destroys the shop's
 *   socket before the answer (the service acted; the shop never hears it);
 * - `down`: destroys a matching request's socket without forwarding (the service never saw it).
 * It counts the requests that reached the sandbox, by "METHOD path-template".
 */
export type ProxyMode = 'pass' | 'lose-answers' | 'down'

export interface ServiceProxy {
  readonly baseUrl: string
  mode: ProxyMode
  /** Which requests the mode applies to (default: all). */
  matches: (method: string, path: string) => boolean
  /** Requests forwarded to the sandbox, e.g. counted('POST', '/payment-details'). */
  counted(method: string, pathEnd: string): number
  close(): Promise<void>
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

export async function startServiceProxy(target: string): Promise<ServiceProxy> {
  const forwarded: Array<{ method: string; path: string }> = []
  const proxy: { -readonly [K in keyof ServiceProxy]: ServiceProxy[K] } = {
    baseUrl: '',
    mode: 'pass',
    matches: () => true,
    counted: (method, pathEnd) => forwarded.filter((r) => r.method === method && r.path.endsWith(pathEnd)).length,
    close: async () => {},
  }
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', target)
      const method = request.method ?? 'GET'
      const applies = proxy.matches(method, url.pathname)
      const body = await bodyOf(request)
      if (applies && proxy.mode === 'down') return request.socket.destroy()
      forwarded.push({ method, path: url.pathname })
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(request.headers))
        if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value
      const answer = await fetch(url, { method, headers, ...(body.length > 0 ? { body: new Uint8Array(body) } : {}) })
      const text = Buffer.from(await answer.arrayBuffer())
      if (applies && proxy.mode === 'lose-answers') return request.socket.destroy()
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text)
    })().catch(() => request.socket.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  proxy.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  proxy.close = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    server.closeAllConnections()
    await closed
  }
  return proxy
}

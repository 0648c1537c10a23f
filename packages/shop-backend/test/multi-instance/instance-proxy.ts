import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** What the proxy does to one request after the sandbox has acted on it. */
export type ProxyAnswer = 'answer' | 'lose' | 'hang'

/**
 * One loopback proxy per shop instance in front of the sandbox, so each instance's calls are
 * counted apart and can be slowed (a feed page that takes seconds), lost (the sandbox acted, the
 * socket is destroyed) or held (the sandbox acted, no answer ever comes: the instance is killed
 * while it waits).
 */
export interface InstanceProxy {
  readonly baseUrl: string
  /** Decides per request; default: answer at once. */
  rule: (method: string, path: string) => { readonly answer: ProxyAnswer; readonly delayMs?: number }
  /** Requests started through this proxy, e.g. started('GET', '/updated-payments'). */
  started(method: string, pathEnd: string): number
  /** Times (ms since epoch) at which matching requests started. */
  startedAt(method: string, pathEnd: string): number[]
  close(): Promise<void>
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

export async function startInstanceProxy(target: string): Promise<InstanceProxy> {
  const log: Array<{ method: string; path: string; at: number }> = []
  const matching = (method: string, pathEnd: string) => log.filter((r) => r.method === method && r.path.endsWith(pathEnd))
  const proxy: { -readonly [K in keyof InstanceProxy]: InstanceProxy[K] } = {
    baseUrl: '',
    rule: () => ({ answer: 'answer' }),
    started: (method, pathEnd) => matching(method, pathEnd).length,
    startedAt: (method, pathEnd) => matching(method, pathEnd).map((r) => r.at),
    close: async () => {},
  }
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', target)
      const method = request.method ?? 'GET'
      log.push({ method, path: url.pathname, at: Date.now() })
      const { answer: what, delayMs = 0 } = proxy.rule(method, url.pathname)
      const body = await bodyOf(request)
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(request.headers))
        if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value
      const answer = await fetch(url, { method, headers, ...(body.length > 0 ? { body: new Uint8Array(body) } : {}) })
      const text = Buffer.from(await answer.arrayBuffer())
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
      if (what === 'hang') return
      if (what === 'lose') return request.socket.destroy()
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

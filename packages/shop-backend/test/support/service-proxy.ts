import { createServer, type IncomingMessage, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FetchLike } from '@card-jwe/service-client'
// The client's own Node transport, only stamped: the tests keep sending as the shop sends.
import { nodeHttpFetch } from '../../../service-client/src/node/node-http-fetch.js'

/**
 * A loopback proxy in front of the sandbox, to make a bad network on purpose. Per request it:
 * - `forward`s it and answers;
 * - `lose`s the answer: forwards it, lets the sandbox act, then destroys the shop's socket (the
 *   service acted; the shop never hears it);
 * - `hang`s: forwards it and never answers (the instance is killed while it waits);
 * - treats the service as `down`: destroys the socket without forwarding (the service never saw it);
 * - `refuse`s it as something before the service's key lookup would (a 401 for a skewed clock, a
 *   gateway's 404): answers `refusal` without forwarding.
 * A request may be held `holdMs` (or until `holdUntil` settles) before it is forwarded (a slow network
 * on the way there: the sandbox has not seen it yet), an answer `delayMs` before it is given (a slow feed page). Requests
 * are logged with their start time, and those that reached the sandbox are counted.
 *
 * A request is judged by the settings (mode, matches, rule) in force when the shop sent it, not when
 * the proxy read it: a client that gave up during a stalled event loop leaves its request unread,
 * and a service that was down when it was sent must never see it after the test brings it back.
 * Requests sent through {@link ServiceProxy.fetch} carry that time; others are judged on arrival.
 */
export type ProxyAction = 'forward' | 'lose' | 'hang' | 'down' | 'refuse'

/** The simple form: one action for the requests `matches` picks, the rest forwarded. */
export type ProxyMode = 'pass' | 'lose-answers' | 'down'

const ACTION_OF_MODE: Readonly<Record<ProxyMode, ProxyAction>> = { pass: 'forward', 'lose-answers': 'lose', down: 'down' }

export interface ServiceProxy {
  readonly baseUrl: string
  mode: ProxyMode
  /** Which requests the mode applies to (default: all). */
  matches: (method: string, path: string) => boolean
  /** Decides per request; default: the mode's action for matching requests, else forward. */
  rule: (
    method: string,
    path: string,
  ) => {
    readonly action: ProxyAction
    readonly delayMs?: number
    readonly holdMs?: number
    readonly holdUntil?: Promise<void>
    /** What `refuse` answers, in the service's envelope (default: 401 `SIGNATURE_STALE`). */
    readonly refusal?: { readonly status: number; readonly errorCode: string }
  }
  /**
   * Whether a request's `idempotency-key` reaches the sandbox (default: always). Without it the
   * sandbox keeps no answer for the request, as a service that forgot the key would.
   */
  forwardsKey: (method: string, path: string) => boolean
  /** What the shop gets for an answer the sandbox gave (default: the answer as it is), e.g. a page given again. */
  answer: (method: string, path: string, body: Buffer) => Buffer
  /** The shop's transport to the proxy: the client's own, each request stamped with when it was sent. */
  readonly fetch: FetchLike
  /** Requests forwarded to the sandbox, e.g. counted('POST', '/payment-details'). */
  counted(method: string, pathEnd: string): number
  /** Requests that arrived at the proxy, forwarded or not. */
  started(method: string, pathEnd: string): number
  /** Times (ms since epoch) at which matching requests arrived. */
  startedAt(method: string, pathEnd: string): number[]
  /** The distinct `idempotency-key`s of the matching requests that reached the sandbox. */
  keysForwarded(method: string, pathEnd: string): string[]
  /** Each matching request that reached the sandbox: its `idempotency-key` and its body as sent. */
  callsForwarded(method: string, pathEnd: string): Array<{ readonly key: string | undefined; readonly body: string }>
  close(): Promise<void>
}

/**
 * The request sent on to the sandbox with node:http, as the shop's own client sends: fetch (undici)
 * would take a thread of libuv's pool, which a test may hold on purpose while requests go through.
 */
function forwarded(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; contentType: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers }, (answer) => {
      bodyOf(answer).then(
        (text) => resolve({ status: answer.statusCode ?? 0, contentType: answer.headers['content-type'], body: text }),
        reject,
      )
    })
    outgoing.once('error', reject)
    outgoing.end(body.length > 0 ? body : undefined)
  })
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** The header that carries when a request was sent (`performance.now()` of this process); never forwarded. */
const SENT_AT = 'x-test-proxy-sent-at'

type Decision = ReturnType<ServiceProxy['rule']>

/** The settings in force from `at` on (`performance.now()`). */
interface Settings {
  readonly at: number
  readonly mode: ProxyMode
  readonly matches: ServiceProxy['matches']
  readonly rule: ServiceProxy['rule']
}

export async function startServiceProxy(target: string): Promise<ServiceProxy> {
  const arrived: Array<{ method: string; path: string; at: number; forwarded: boolean; key: string | undefined; body: string }> = []
  const matching = (method: string, pathEnd: string) => arrived.filter((r) => r.method === method && r.path.endsWith(pathEnd))
  // The default rule: the mode of the settings it is judged under, for the requests they match.
  const byMode: ServiceProxy['rule'] = (method, path) => decide(history.at(-1)!, method, path)
  const history: Settings[] = [{ at: Number.NEGATIVE_INFINITY, mode: 'pass', matches: () => true, rule: byMode }]
  function decide(settings: Settings, method: string, path: string): Decision {
    if (settings.rule !== byMode) return settings.rule(method, path)
    return { action: settings.matches(method, path) ? ACTION_OF_MODE[settings.mode] : 'forward' }
  }
  const change = (next: Partial<Omit<Settings, 'at'>>) => history.push({ ...history.at(-1)!, ...next, at: performance.now() })
  /** The settings in force when a request was sent; unstamped, those in force now. */
  function settingsAt(sentAt: number): Settings {
    for (let i = history.length - 1; i > 0; i--) if (history[i]!.at <= sentAt) return history[i]!
    return history[0]!
  }
  const proxy: { -readonly [K in keyof ServiceProxy]: ServiceProxy[K] } = {
    baseUrl: '',
    get mode() {
      return history.at(-1)!.mode
    },
    set mode(mode) {
      change({ mode })
    },
    get matches() {
      return history.at(-1)!.matches
    },
    set matches(matches) {
      change({ matches })
    },
    get rule() {
      return history.at(-1)!.rule
    },
    set rule(rule) {
      change({ rule })
    },
    fetch: (url, init) => nodeHttpFetch(url, { ...init, headers: { ...init.headers, [SENT_AT]: String(performance.now()) } }),
    forwardsKey: () => true,
    answer: (_method, _path, body) => body,
    counted: (method, pathEnd) => matching(method, pathEnd).filter((r) => r.forwarded).length,
    started: (method, pathEnd) => matching(method, pathEnd).length,
    startedAt: (method, pathEnd) => matching(method, pathEnd).map((r) => r.at),
    keysForwarded: (method, pathEnd) => [
      ...new Set(matching(method, pathEnd).flatMap((r) => (r.forwarded && r.key !== undefined ? [r.key] : []))),
    ],
    callsForwarded: (method, pathEnd) => matching(method, pathEnd).flatMap((r) => (r.forwarded ? [{ key: r.key, body: r.body }] : [])),
    close: async () => {},
  }
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', target)
      const method = request.method ?? 'GET'
      const key = request.headers['idempotency-key']
      const entry = {
        method,
        path: url.pathname,
        at: Date.now(),
        forwarded: false,
        key: typeof key === 'string' ? key : undefined,
        body: '',
      }
      arrived.push(entry)
      const sentAt = Number(request.headers[SENT_AT] ?? Number.POSITIVE_INFINITY)
      const decision = decide(settingsAt(sentAt), method, url.pathname)
      const { action, delayMs = 0, holdMs = 0, holdUntil } = decision
      const body = await bodyOf(request)
      entry.body = body.toString('utf8')
      if (action === 'down') return request.socket.destroy()
      if (action === 'refuse') {
        const { status, errorCode } = decision.refusal ?? { status: 401, errorCode: 'SIGNATURE_STALE' }
        const envelope = { status, errorCode, message: `refused by the test proxy (${errorCode})`, errorType: 'security' }
        return void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(envelope))
      }
      if (holdMs > 0) await new Promise((resolve) => setTimeout(resolve, holdMs))
      await holdUntil
      entry.forwarded = true
      const headers: Record<string, string> = {}
      const dropped = new Set(['host', 'connection', SENT_AT, ...(proxy.forwardsKey(method, url.pathname) ? [] : ['idempotency-key'])])
      for (const [name, value] of Object.entries(request.headers))
        if (typeof value === 'string' && !dropped.has(name)) headers[name] = value
      const answer = await forwarded(url, method, headers, body)
      const text = answer.body
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
      if (action === 'hang') return
      if (action === 'lose') return request.socket.destroy()
      response
        .writeHead(answer.status, { 'content-type': answer.contentType ?? 'application/json' })
        .end(proxy.answer(method, url.pathname, text))
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

/**
 * Requests the shop answers only when they come from its own pages under its own name. Listening
 * on loopback does not keep other web pages out: any page the shop owner or a shopper has open can
 * send requests to 127.0.0.1.
 * - Host: DNS rebinding (a hostile site re-pointing its own name at 127.0.0.1 to read the answers)
 *   arrives with that site's name in Host (RFC 9110, 7.2), so any other name is refused.
 * - Fetch Metadata and Origin: a hostile page's request to the shop's API (CSRF: "refund order 7")
 *   carries `Sec-Fetch-Site: cross-site` and its own Origin (Fetch Metadata Request Headers, 2.1).
 * - JSON only: a cross-site form or a text/plain fetch cannot send `application/json` without a
 *   CORS preflight, which the shop never grants; this covers browsers without Fetch Metadata.
 * The service's server-to-server calls (/shop-json/) carry neither header and have Basic auth.
 * - CSP reports (report types only) pass whatever their origin: they change nothing, and WebKit
 *   sends them with `Origin: null`.
 */
import type { HttpBindings } from '@hono/node-server'
import type { MiddlewareHandler } from 'hono'
import { HttpError } from './http-error.js'

/** What a POST body may be: a CSP violation report arrives as report-uri's or the Reporting API's type. */
const JSON_BODY = { types: new Set(['application/json']), rule: 'must be application/json' }
/** The content types only browsers' report delivery uses (report-uri, Reporting API). */
const REPORT_TYPES = new Set(['application/csp-report', 'application/reports+json'])
const CSP_REPORT_BODY = {
  types: new Set(['application/csp-report', 'application/reports+json', 'application/json']),
  rule: 'must be a CSP report type',
}

/** Throws a 421/403/415 HttpError for a request the shop must not answer. */
export function checkRequest(request: Request, path: string, localPort: number | undefined): void {
  // The shop's names on the port this connection came in on: nothing to configure or keep.
  const hosts = [`127.0.0.1:${localPort}`, `localhost:${localPort}`]
  if (!hosts.includes((request.headers.get('host') ?? '').toLowerCase())) {
    throw new HttpError(421, 'UNKNOWN_HOST', 'host header: not a name of this shop')
  }
  if (!path.startsWith('/api/')) return
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  // A browser's CSP report changes nothing and is size-capped and redacted; WebKit posts it with
  // `Origin: null`, so the origin check would drop every Safari shopper's report.
  if (request.method === 'POST' && path === '/api/csp-report' && REPORT_TYPES.has(type)) return
  const site = request.headers.get('sec-fetch-site')
  const origin = request.headers.get('origin')
  if (
    (site !== null && site !== 'same-origin' && site !== 'none') ||
    (origin !== null && !hosts.some((host) => origin === `http://${host}`))
  ) {
    throw new HttpError(403, 'CROSS_SITE_REQUEST', 'origin: the shop API answers its own pages only')
  }
  if (request.method === 'POST') {
    const body = path === '/api/csp-report' ? CSP_REPORT_BODY : JSON_BODY
    if (!body.types.has(type)) throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', `content-type: ${body.rule}`)
  }
}

/**
 * The demo's admin has no accounts: it is the shop owner's, on loopback, and what keeps everyone
 * else out is this guard (its own name, its own pages, JSON). The back end's admin routes take it as
 * their `authorize`: a shop with a sign-in checks its session here instead.
 */
export function fromOwnPages(localPort: number): (request: Request) => boolean {
  return (request) => {
    try {
      checkRequest(request, new URL(request.url).pathname, localPort)
      return true
    } catch (error) {
      if (error instanceof HttpError) return false
      throw error
    }
  }
}

/** The guard as Hono middleware, before every route (the back end's included). */
export const requestGuard: MiddlewareHandler<{ Bindings: HttpBindings }> = async (c, next) => {
  const port = c.env.incoming.socket.localPort
  checkRequest(c.req.raw, c.req.path, port)
  // Pages go to the shop's own address, 127.0.0.1 (its shopUrl): 3-D Secure answers are posted
  // there only, and the back end refuses a card paid from a page at localhost.
  const method = c.req.method
  if ((method === 'GET' || method === 'HEAD') && c.req.header('host')?.toLowerCase().startsWith('localhost:') && !isApi(c.req.path)) {
    const { pathname, search } = new URL(c.req.url)
    return c.redirect(`http://127.0.0.1:${port}${pathname}${search}`, 308)
  }
  await next()
}

const isApi = (path: string) => path.startsWith('/api/') || path.startsWith('/shop-json/')

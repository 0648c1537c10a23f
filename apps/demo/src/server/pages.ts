import { extname } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { MiddlewareHandler } from 'hono'

/**
 * The pages' Content-Security-Policy: scripts, styles and requests from this origin only; the
 * service's origin only for the 3-D Secure iframes and the forms posted into them; no framing of
 * the shop's pages; violations reported to the shop. `report-uri` and not `report-to`: Chromium
 * delivers Reporting API reports only from HTTPS pages and ignores `report-uri` once `report-to` is
 * present, so on the demo's plain-HTTP loopback `report-to` would silence every report.
 */
export function pagePolicy(serviceOrigin: string, inlineScriptHashes: readonly string[] = []): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...inlineScriptHashes.map((hash) => `'${hash}'`)].join(' '),
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${serviceOrigin}`,
    `form-action 'self' ${serviceOrigin}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    'report-uri /api/csp-report',
  ].join('; ')
}

/** The built files the shop serves: pages, scripts, styles and images; nothing else in the folder. */
const SERVED = new Set(['.html', '.js', '.css', '.svg'])

/**
 * The built pages through `@hono/node-server`'s `serveStatic` (which refuses `..`, encoded
 * separators and anything outside `root`). HTML gets the page policy and is never cached; the
 * hashed assets are immutable.
 */
export function servePages(root: string, policy: string): MiddlewareHandler {
  const files = serveStatic({ root })
  return async (c, next) => {
    if (!SERVED.has(extname(c.req.path === '/' ? '/index.html' : c.req.path))) return next()
    let found = true
    const response = await files(c, async () => {
      found = false
    })
    if (!found || !(response instanceof Response)) return next()
    const html = (response.headers.get('content-type') ?? '').startsWith('text/html')
    response.headers.set('x-content-type-options', 'nosniff')
    response.headers.set('referrer-policy', 'no-referrer')
    response.headers.set('cache-control', html ? 'no-store' : 'public, max-age=31536000, immutable')
    if (html) {
      response.headers.set('content-security-policy', policy)
      response.headers.set('x-frame-options', 'DENY')
    }
    return response
  }
}

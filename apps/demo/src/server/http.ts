import type { IncomingMessage, ServerResponse } from 'node:http'

/** Demo API errors: a status, a stable code and a message naming fields and rules only. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message)
  }
}

export const MAX_BODY_BYTES = 64 * 1024

export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'BODY_TOO_LARGE', `body larger than ${MAX_BODY_BYTES} bytes`)
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response
    .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
    .end(JSON.stringify(body))
}

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

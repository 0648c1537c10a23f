import { ShopBackendError } from '../errors.js'

const JSON_HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } })
}

/** Seconds a caller waits before trying a "not now" (503) again, unless the answer names its own. */
const RETRY_AFTER_S = 2

export function errorResponse(error: ShopBackendError, headers: Record<string, string> = {}): Response {
  return json(
    error.status,
    { error: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) },
    error.status === 503 ? { 'retry-after': String(RETRY_AFTER_S), ...headers } : headers,
  )
}

/** JSON only: no other page can send it without a CORS preflight (the demo's cross-site finding). */
export function requireJson(request: Request): void {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/json') throw new ShopBackendError(415, 'UNSUPPORTED_MEDIA_TYPE', 'content-type: must be application/json')
}

/** The body, at most `maxBytes`, read as it streams: a huge body is cut off, not buffered. */
export async function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new ShopBackendError(413, 'BODY_TOO_LARGE', `body: larger than ${maxBytes} bytes`)
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge()
  // A declared length bounds the body (the HTTP parser reads no further): read it whole, which
  // @hono/node-server serves from the socket without building a web stream (a third of a request's cost).
  if (Number.isFinite(declared) && declared >= 0) {
    const body = new Uint8Array(await request.arrayBuffer())
    if (body.byteLength > maxBytes) throw tooLarge()
    return body
  }
  if (!request.body) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      throw tooLarge()
    }
    chunks.push(value)
  }
  const body = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    body.set(chunk, at)
    at += chunk.byteLength
  }
  return body
}

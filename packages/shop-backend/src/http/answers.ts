import type { ShopBackendError } from '../errors.js'
import { httpStatusOf } from './status-of-code.js'

const JSON_HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }

/** Every answer of the back end is one of these: JSON, never cached, never sniffed. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } })
}

/** Seconds a caller waits before trying a "not now" (503) again, unless the answer names its own. */
const RETRY_AFTER_S = 2

/** A refusal as `{error, message, details?}` with the status its code maps to. */
export function errorResponse(error: ShopBackendError, headers: Record<string, string> = {}): Response {
  const status = httpStatusOf(error.code)
  return json(
    status,
    { error: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) },
    status === 503 ? { 'retry-after': String(RETRY_AFTER_S), ...headers } : headers,
  )
}

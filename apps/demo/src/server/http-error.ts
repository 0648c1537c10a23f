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

const JSON_HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }

/** The demo's JSON answers: never cached, never sniffed. */
export function json(status: number, body: unknown): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: JSON_HEADERS })
}

export function errorJson(error: HttpError): Response {
  return json(error.status, { error: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) })
}

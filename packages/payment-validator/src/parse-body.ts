import { ValidationError } from './errors.js'
import { describeIssues, issuesOf, MISSING_AS_REQUIRED } from './lib/issues.js'
import type { z } from 'zod'

/** Payment bodies are small; 64 KiB is far above any of them. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024

/** The outcome of {@link parseJsonBody}: never throws for a bad body. */
export type BodyResult<T> =
  | {
      /** The body parsed and passed the schema. */
      readonly ok: true
      /** The parsed body. */
      readonly value: T
    }
  | {
      /** The body was refused. */
      readonly ok: false
      /** Why, with a code and the issues. */
      readonly error: ValidationError
    }

/**
 * Parses a request body (text or bytes) against a schema, refusing anything above `maxBytes`
 * before parsing. Errors name fields and rules; JSON.parse's own message, which quotes the input,
 * is never passed on.
 */
export function parseJsonBody<S extends z.ZodType>(
  body: string | Uint8Array,
  schema: S,
  options: { maxBytes?: number } = {},
): BodyResult<z.infer<S>> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES
  const size = typeof body === 'string' ? new TextEncoder().encode(body).length : body.length
  if (size > maxBytes) return { ok: false, error: new ValidationError('ERR_BODY_TOO_LARGE', `body: larger than ${maxBytes} bytes`) }
  let value: unknown
  try {
    value = JSON.parse(typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body))
  } catch {
    const issues = [{ path: '(body)', rule: 'json' }]
    return { ok: false, error: new ValidationError('ERR_INVALID_BODY', 'body: not valid JSON', issues) }
  }
  const result = schema.safeParse(value, MISSING_AS_REQUIRED)
  if (result.success) return { ok: true, value: result.data }
  const issues = issuesOf(result.error)
  return { ok: false, error: new ValidationError('ERR_INVALID_BODY', `body: ${describeIssues(issues)}`, issues) }
}

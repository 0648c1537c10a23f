import { describeIssues, issuesOf, MISSING_AS_REQUIRED } from '@card-jwe/payment-validator'
import type { z } from 'zod'
import { SandboxError } from '../errors.js'
import type { RequestContext } from './handler.js'

/** The JSON body of a request; its parse error is never passed on (it would quote the body). */
export function jsonOf(c: RequestContext): unknown {
  const body = c.var.body
  if (body.length === 0) return undefined
  if (!/^application\/json\b/i.test(c.req.header('content-type') ?? ''))
    throw new SandboxError('UNSUPPORTED_MEDIA_TYPE', 'content-type must be application/json')
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body))
  } catch {
    throw new SandboxError('INVALID_JSON', 'body: not valid JSON')
  }
}

/**
 * The JSON body checked against `schema`; a refusal is 422 INVALID_REQUEST that starts with `what`
 * and names each field and rule (never a value).
 */
export function validBody<T>(c: RequestContext, schema: z.ZodType<T>, what: string): T {
  const parsed = schema.safeParse(jsonOf(c), MISSING_AS_REQUIRED)
  if (!parsed.success) throw new SandboxError('INVALID_REQUEST', `${what}: ${describeIssues(issuesOf(parsed.error))}`)
  return parsed.data
}

/** A form post (the 3-D Secure and bank pages). */
export function formOf(c: RequestContext): URLSearchParams {
  return new URLSearchParams(c.var.body.toString('utf8'))
}

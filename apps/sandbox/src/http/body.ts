import type { IncomingMessage } from 'node:http'
import { describeIssues, issuesOf } from '@card-jwe/payment-validator'
import type { z } from 'zod'
import { SandboxError } from '../errors.js'

/** Every body the service takes is small; anything above this is refused unread. */
export const MAX_BODY_BYTES = 64 * 1024

export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? 0)
  if (declared > MAX_BODY_BYTES) throw new SandboxError(413, 'BODY_TOO_LARGE', `body larger than ${MAX_BODY_BYTES} bytes`)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) throw new SandboxError(413, 'BODY_TOO_LARGE', `body larger than ${MAX_BODY_BYTES} bytes`)
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** The JSON body of a request; its parse error is never passed on (it would quote the body). */
export function jsonOf(body: Buffer, contentType: string | undefined): unknown {
  if (body.length === 0) return undefined
  if (!/^application\/json\b/i.test(contentType ?? ''))
    throw new SandboxError(415, 'UNSUPPORTED_MEDIA_TYPE', 'content-type must be application/json')
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body))
  } catch {
    throw new SandboxError(400, 'INVALID_JSON', 'body: not valid JSON')
  }
}

/**
 * The JSON body checked against `schema`; a refusal is 422 INVALID_REQUEST that starts with `what`
 * and names each field and rule (never a value).
 */
export function validBody<T>(
  request: { readonly body: Buffer; readonly headers: { readonly 'content-type'?: string | undefined } },
  schema: z.ZodType<T>,
  what: string,
): T {
  const parsed = schema.safeParse(jsonOf(request.body, request.headers['content-type']))
  if (!parsed.success) throw new SandboxError(422, 'INVALID_REQUEST', `${what}: ${describeIssues(issuesOf(parsed.error))}`)
  return parsed.data
}

/** A form post (the 3-D Secure and bank pages). */
export function formOf(body: Buffer): URLSearchParams {
  return new URLSearchParams(body.toString('utf8'))
}

import { ValidationError } from '../errors.js'
import { describeIssues, issuesOf } from './issues.js'

/** A body the shop builds, parsed by its strict schema, or ERR_INVALID_BODY naming each field and rule. */
export function strictBody<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: Parameters<typeof issuesOf>[0] } },
  body: unknown,
  what: string,
): T {
  const result = schema.safeParse(body)
  if (result.success) return result.data
  const issues = issuesOf(result.error)
  throw new ValidationError('ERR_INVALID_BODY', `${what}: ${describeIssues(issues)}`, issues)
}

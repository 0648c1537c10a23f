import { ValidationError } from '../errors.js'
import { describeIssues, issuesOf, MISSING_AS_REQUIRED } from './issues.js'

/** A body the shop builds, parsed by its strict schema, or ERR_INVALID_BODY naming each field and rule. */
export function strictBody<T>(
  schema: {
    safeParse(
      v: unknown,
      options: typeof MISSING_AS_REQUIRED,
    ): { success: true; data: T } | { success: false; error: Parameters<typeof issuesOf>[0] }
  },
  body: unknown,
  what: string,
): T {
  const result = schema.safeParse(body, MISSING_AS_REQUIRED)
  if (result.success) return result.data
  const issues = issuesOf(result.error)
  throw new ValidationError('ERR_INVALID_BODY', `${what}: ${describeIssues(issues)}`, issues)
}

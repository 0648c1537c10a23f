import type { z } from 'zod'
import type { ValidationIssue } from '../errors.js'

/** "amount.value", "lineItems.0.quantity"; the body itself is "(body)". */
export function pathOf(path: ReadonlyArray<PropertyKey>): string {
  return path.length ? path.map(String).join('.') : '(body)'
}

/**
 * zod's issues as field and rule, never the value: "type:int", "too_big", "format:url",
 * "unknown_key", or the message of our own refinements ("not an ISO 4217 code in use").
 */
export function issuesOf(error: z.ZodError): ValidationIssue[] {
  return error.issues.flatMap((issue): ValidationIssue[] => {
    const path = pathOf(issue.path)
    switch (issue.code) {
      case 'invalid_type':
        return [{ path, rule: `type:${issue.expected}` }]
      case 'invalid_format':
        return [{ path, rule: `format:${issue.format}` }]
      case 'unrecognized_keys':
        // The key names come from the sender, so they are cut to a readable length.
        return issue.keys.map((key) => ({ path: pathOf([...issue.path, key.slice(0, 64)]), rule: 'unknown_key' }))
      case 'custom':
        return [{ path, rule: issue.message }]
      default:
        return [{ path, rule: issue.code }]
    }
  })
}

/** The issues as one line for a message: "amount.value (invalid_type), reference (too_big)". */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.path} (${i.rule})`).join(', ')
}

import type { z } from 'zod'
import type { ValidationIssue } from '../errors.js'
import { keyForMessage } from '../key-for-message.js'
import { isRawCardName, RAW_CARD_RULE } from '../schemas/raw-card-fields.js'

/** "amount.value", "lineItems.0.quantity"; the body itself is "(body)". */
export function pathOf(path: ReadonlyArray<PropertyKey>): string {
  return path.length ? path.map((part) => (typeof part === 'string' ? keyForMessage(part) : String(part))).join('.') : '(body)'
}

/** The message {@link MISSING_AS_REQUIRED} gives a missing field's issue; read back as the rule "required". */
const MISSING = 'required'

/**
 * Parse options that tell a missing field from one of the wrong type: pass them to `safeParse` before
 * {@link issuesOf}, so `{}` reads "amount (required)", not "amount (type:object)". An error map, not
 * `reportInput`, so no value is ever kept in an issue.
 */
export const MISSING_AS_REQUIRED = {
  /** zod's error map for this parse: a marker message for a missing field's issue, zod's own for the rest. */
  error: (issue: { code?: string; input?: unknown }) =>
    (issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined ? MISSING : undefined,
} as const

/**
 * zod's issues as field and rule, never the value: "required", "type:int", "too_big", "format:url",
 * "unknown_key", or the message of our own refinements ("not an ISO 4217 code in use").
 */
export function issuesOf(error: z.ZodError): ValidationIssue[] {
  return issuesAt([], error.issues)
}

type Issue = z.ZodError['issues'][number]

function issuesAt(prefix: ReadonlyArray<PropertyKey>, issues: readonly Issue[]): ValidationIssue[] {
  return issues.flatMap((issue): ValidationIssue[] => {
    const at = [...prefix, ...issue.path]
    const path = pathOf(at)
    switch (issue.code) {
      case 'invalid_type':
        return [{ path, rule: issue.message === MISSING ? 'required' : `type:${issue.expected}` }]
      case 'invalid_value':
        return [{ path, rule: issue.message === MISSING ? 'required' : issue.code }]
      case 'invalid_format':
        return [{ path, rule: `format:${issue.format}` }]
      case 'unrecognized_keys':
        // The key names come from the sender, so they are cut to a readable length.
        return issue.keys.map((key) => ({
          path: pathOf([...at, key.slice(0, 64)]),
          // At a body's top level, where a page's form fields would land; deeper (an address's
          // `number`) it is an unknown key like any other.
          rule: at.length === 0 && isRawCardName(key) ? RAW_CARD_RULE : 'unknown_key',
        }))
      case 'invalid_key':
        // The record's path, not the key's: a key refused for its characters may be anything the sender typed.
        return [
          {
            path: pathOf(at.slice(0, -1)),
            rule: `each key: ${issuesAt([], issue.issues)
              .map((i) => i.rule)
              .join(', ')}`,
          },
        ]
      case 'custom':
        return [{ path, rule: issue.message }]
      case 'invalid_union':
        return unionIssues(at, path, issue.errors)
      default:
        return [{ path, rule: issue.code }]
    }
  })
}

/**
 * Marks a union form's refusal that leaves the value to the other forms (`params` of a refinement):
 * `{ type: "scheme" }` is refused by "any other method" because it belongs to the card forms.
 */
export const DEFER_TO_OTHER_FORMS = 'deferToOtherForms'

const defers = (issue: Issue): boolean => issue.code === 'custom' && issue.params?.[DEFER_TO_OTHER_FORMS] === true

/**
 * A value that fits none of a union's forms. "invalid_union" alone told a shop developer nothing:
 * the forms that came closest (fewest issues) say what is wrong, as "one of: type:number,
 * type:string" when each is about the value itself; else what they want apart as one choice at the
 * union's path, and what all of them refuse at its own.
 */
function unionIssues(at: ReadonlyArray<PropertyKey>, path: string, forms: readonly (readonly Issue[])[]): ValidationIssue[] {
  // A form that only says "not mine, one of the others" is heard only when no other form has a word.
  const judging = forms.filter((form) => !form.every(defers))
  const described = (judging.length ? judging : forms).map((form) => issuesAt(at, form)).filter((form) => form.length > 0)
  if (described.length === 0) return [{ path, rule: 'none of its forms' }]
  const fewest = Math.min(...described.map((form) => form.length))
  const closestForms = described.filter((form) => form.length === fewest)
  const closest = closestForms.flat()
  if (closest.every((i) => i.path === path)) {
    const rules = [...new Set(closest.map((i) => i.rule))]
    // Missing is missing whatever form it would take: "required", not "one of: required".
    return [{ path, rule: rules.length === 1 && rules[0] === 'required' ? 'required' : `one of: ${rules.join(', ')}` }]
  }
  const key = (i: ValidationIssue) => `${i.path} ${i.rule}`
  const seen = new Set<string>()
  const once = (issues: readonly ValidationIssue[]) => issues.filter((i) => !seen.has(key(i)) && seen.add(key(i)))
  // What each close form wants apart from the others is one choice: "jwe type:string | storedPaymentMethodId
  // type:string", not two fields that read as both required.
  const inEvery = new Set(closest.map(key).filter((k) => closestForms.every((form) => form.some((i) => key(i) === k))))
  // An issue under the union's value as "field rule", its path from the union's own.
  const under = at.length ? `${path}.` : ''
  const inside = (i: ValidationIssue) => `${i.path.startsWith(under) ? i.path.slice(under.length) : i.path} ${i.rule}`
  const choices = [
    ...new Set(
      closestForms.map((form) =>
        form
          .filter((i) => !inEvery.has(key(i)))
          .map(inside)
          .join(' and '),
      ),
    ),
  ]
  if (choices.length < 2 || choices.includes('')) return once(closest)
  return [{ path, rule: `one of: ${choices.join(' | ')}` }, ...once(closest.filter((i) => inEvery.has(key(i))))]
}

/** The issues as one line for a message: "amount.value (invalid_type), reference (too_big)". */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.path} (${i.rule})`).join(', ')
}

import type { CardField, FieldRule } from './errors.js'

/**
 * The answer for one field as the shopper types, in braintree card-validator's terms:
 * `isValid` the value is complete and acceptable; `isPotentiallyValid` it is, or typing more could
 * make it so (show an error only when this is false, or on blur when `isValid` is false).
 */
export interface FieldVerdict {
  /** The value is complete and acceptable as it stands. */
  readonly isValid: boolean
  /** The value is acceptable or could become so by typing more; flag the field only when false. */
  readonly isPotentiallyValid: boolean
  /** Present when not valid: which rule the value breaks now. */
  readonly rule?: FieldRule
  /** Present when not valid: which card field the rule is about. */
  readonly field?: CardField
}

/** Builds a verdict; `rule` and `field` are kept only when the value is not valid. */
export function verdictOf<T extends object>(
  field: CardField,
  isValid: boolean,
  isPotentiallyValid: boolean,
  rule: FieldRule,
  extra?: T,
): FieldVerdict & T {
  // Built without object spread: verdicts run on every keystroke and for every card encrypted.
  const verdict = { isValid, isPotentiallyValid } as { -readonly [K in keyof FieldVerdict]: FieldVerdict[K] }
  if (!isValid) {
    verdict.rule = rule
    verdict.field = field
  }
  return (extra ? Object.assign(verdict, extra) : verdict) as FieldVerdict & T
}

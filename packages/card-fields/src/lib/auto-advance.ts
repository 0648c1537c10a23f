import type { CardFieldName } from '../messages.js'
import { digitsOf } from './digits.js'
import { FIELD_ORDER } from './field-order.js'
import { fieldVerdict, securityCodeSize, type TypedValues, type VerdictContext } from './field-verdict.js'

/**
 * Whether a field is done, so auto-advance may leave it: valid, and nothing more can be typed.
 * A number is done only at its brand's longest length (a 16-digit Visa could still be 19); a
 * month once it has two digits; a name never, since any name could go on.
 */
export function isComplete(name: CardFieldName, typed: TypedValues, context: VerdictContext): boolean {
  if (!fieldVerdict(name, typed, context).isValid) return false
  if (name === 'number') return !!context.brand && digitsOf(typed.number ?? '').length === Math.max(...context.brand.lengths)
  if (name === 'securityCode') return (typed.securityCode ?? '').length === securityCodeSize(context.brand)
  if (name === 'expiryMonth') return (typed.expiryMonth ?? '').length === 2
  return name !== 'holderName'
}

/** The fields after `name`, nearest first: where auto-advance looks for the next one to focus. */
export function fieldsAfter(name: CardFieldName): readonly CardFieldName[] {
  return FIELD_ORDER.slice(FIELD_ORDER.indexOf(name) + 1)
}

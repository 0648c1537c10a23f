import { textOf } from './lib/text.js'
import { verdictOf, type FieldVerdict } from './verdict.js'

/** The longest holder name accepted, as credit-card-type's cardholder-name check allows. */
export const MAX_HOLDER_NAME_LENGTH = 255

// Digits have no place in a name and are where a pasted card number would land; control
// characters are never typed.
const FORBIDDEN = /[0-9\p{Cc}]/u

/** Verdict on the optional holder name: empty is valid. Never throws. */
export function holderNameVerdict(value: string): FieldVerdict {
  const name = textOf(value).trim()
  if (FORBIDDEN.test(name)) return verdictOf('holderName', false, false, 'characters')
  const fits = name.length <= MAX_HOLDER_NAME_LENGTH
  return verdictOf('holderName', fits, fits, 'length')
}

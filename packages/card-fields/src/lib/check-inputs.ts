import { CardFieldsError } from '../errors.js'
import type { CardFieldInputs } from '../types.js'
import { FIELD_ORDER } from './field-order.js'

/** Input types with a selection to keep; `type="number"` has none (HTML, 4.10.5.2.10). */
const TYPES_WITH_CARET = /^(text|tel|search|password|url)$/

/**
 * Refuses a mistake in the call, naming the option: no number field (but for a saved card's code),
 * half a split expiry, an input without a caret.
 */
export function checkInputs(fields: Partial<CardFieldInputs>, savedCard = false): void {
  // Month and year come as a pair when there is no one-field expiry.
  const pair = !fields?.expiry && !!(fields?.expiryMonth || fields?.expiryYear)
  for (const name of FIELD_ORDER) {
    const input = fields?.[name]
    if (!input && ((name === 'number' && !savedCard) || (pair && name.startsWith('expiry') && name !== 'expiry'))) {
      throw new CardFieldsError('ERR_INVALID_ARGUMENT', `fields.${name}: required`)
    }
    if (input && !TYPES_WITH_CARET.test(input.type)) {
      throw new CardFieldsError('ERR_INVALID_ARGUMENT', `fields.${name}: a text input (type=number keeps no caret)`)
    }
  }
}

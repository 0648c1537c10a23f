import { formatCardNumber, MAX_CARD_NUMBER_LENGTH, numberVerdict } from 'card-jwe'
import type { EditResult, FieldEdit, FieldState } from './field-edit.js'
import { editDigits, reformatDigits, type DigitFormat } from './lib/edit-digits.js'

/** The most digits a number may reach: the brand's longest length once the brand is known. */
function maxNumberDigits(digits: string): number {
  const brand = numberVerdict(digits).brand
  return brand ? Math.max(...brand.lengths) : MAX_CARD_NUMBER_LENGTH
}

const NUMBER_FORMAT: DigitFormat = { maxDigits: maxNumberDigits, format: formatCardNumber }

/**
 * A card number field after an edit: digits grouped at the brand's gaps (card-jwe's table), at most
 * the brand's longest length, the caret after the same digits as before. `null`: nothing changes.
 */
export function editCardNumber(state: FieldState, edit: FieldEdit): EditResult | null {
  return editDigits(state, edit, NUMBER_FORMAT)
}

/** A card number field re-formatted as it stands (after autofill or an IME), the caret kept. */
export function reformatCardNumber(state: FieldState): EditResult {
  return reformatDigits(state, NUMBER_FORMAT)
}

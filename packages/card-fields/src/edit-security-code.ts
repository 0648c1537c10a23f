import type { EditResult, FieldEdit, FieldState } from './field-edit.js'
import { editDigits, reformatDigits, type DigitFormat } from './lib/edit-digits.js'

const formats = new Map<number, DigitFormat>()

/** Digits only, at most `size` of them (the brand's code size; 4 while the brand is unknown). */
function codeFormat(size: number): DigitFormat {
  let format = formats.get(size)
  if (!format) {
    format = { maxDigits: () => size, format: (digits) => digits }
    formats.set(size, format)
  }
  return format
}

/** A security code field after an edit: digits only, at most `size`. `null`: nothing changes. */
export function editSecurityCode(state: FieldState, edit: FieldEdit, size: number): EditResult | null {
  return editDigits(state, edit, codeFormat(size))
}

/** A security code field re-formatted as it stands, cut to `size` digits. */
export function reformatSecurityCode(state: FieldState, size: number): EditResult {
  return reformatDigits(state, codeFormat(size))
}

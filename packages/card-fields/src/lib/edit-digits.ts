import type { EditResult, FieldEdit, FieldState } from '../field-edit.js'
import { digitsOf, positionAfterDigits } from './digits.js'

/** How one kind of field shows its digits. */
export interface DigitFormat {
  /** The most digits the field takes, given the digits it would hold. */
  maxDigits(digits: string): number
  /** The digits as shown ("4111 1111", "03/30"). */
  format(digits: string): string
  /** A last say over the digits and the caret (the expiry's "4" -> "04"); identity when absent. */
  adjust?(digits: string, caretDigits: number): { digits: string; caretDigits: number }
}

/**
 * Applies an edit to a field that shows digits with separators. The caret is counted in digits, not
 * characters, so separators the formatting adds or removes never move it; Backspace and Delete next
 * to a separator remove the digit beyond it. Returns null when the edit changes nothing (a letter
 * typed, Backspace at the start), so the caller leaves the field as it is.
 */
export function editDigits(state: FieldState, edit: FieldEdit, format: DigitFormat): EditResult | null {
  const all = digitsOf(state.value)
  const start = digitsOf(state.value.slice(0, state.selectionStart)).length
  const end = Math.max(start, digitsOf(state.value.slice(0, state.selectionEnd)).length)
  const selected = end > start
  let before = all.slice(0, start)
  let after = all.slice(end)

  if (edit.kind === 'insert') {
    const typed = digitsOf(edit.text)
    // Nothing a number can hold (a letter): the field and the caret stay as they were.
    if (typed === '') return null
    const room = Math.max(0, format.maxDigits(before + typed + after) - before.length - after.length)
    const kept = typed.slice(0, room)
    if (kept === '' && !selected) return null
    return result(before + kept + after, before.length + kept.length, format)
  }
  if (selected) return result(before + after, before.length, format)
  if (edit.kind === 'deleteBackward') {
    if (before === '') return null
    before = before.slice(0, -1)
  } else {
    if (after === '') return null
    after = after.slice(1)
  }
  return result(before + after, before.length, format)
}

/** Re-formats whatever the field holds now (after autofill, an IME, an edit the browser made). */
export function reformatDigits(state: FieldState, format: DigitFormat): EditResult {
  const all = digitsOf(state.value)
  const digits = all.slice(0, format.maxDigits(all))
  return result(digits, Math.min(digits.length, digitsOf(state.value.slice(0, state.selectionStart)).length), format)
}

function result(digits: string, caretDigits: number, format: DigitFormat): EditResult {
  const adjusted = format.adjust ? format.adjust(digits, caretDigits) : { digits, caretDigits }
  const value = format.format(adjusted.digits)
  return { value, caret: positionAfterDigits(value, adjusted.caretDigits) }
}

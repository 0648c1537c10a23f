import type { EditResult, FieldEdit, FieldState } from './field-edit.js'
import { digitsOf } from './lib/digits.js'
import { editDigits, reformatDigits, type DigitFormat } from './lib/edit-digits.js'

/** The separator shown between month and year ("03/30"). */
export const EXPIRY_SEPARATOR = '/'

/**
 * A month typed so that it cannot grow into 01-12 becomes one: "4" is April ("04"), and "13" is
 * January of a year starting with 3 ("01/3"), as a shopper typing "1/30" without the slash means.
 */
function completeMonth(digits: string, caretDigits: number): { digits: string; caretDigits: number } {
  if (/^[2-9]/.test(digits)) return { digits: `0${digits}`.slice(0, 4), caretDigits: Math.min(4, caretDigits + 1) }
  if (/^1[3-9]/.test(digits)) return { digits: `01${digits.slice(1)}`.slice(0, 4), caretDigits: Math.min(4, caretDigits + 1) }
  return { digits, caretDigits }
}

const EXPIRY_FORMAT: DigitFormat = {
  maxDigits: () => 4,
  format: (digits) => (digits.length < 2 ? digits : `${digits.slice(0, 2)}${EXPIRY_SEPARATOR}${digits.slice(2)}`),
  adjust: completeMonth,
}

/**
 * A whole expiry as autofill (`cc-exp`) or a paste gives it: "03/2030", "3/30", "03 - 30",
 * "032030". Four-digit years keep their last two digits. Null for anything else.
 */
export function parseWholeExpiry(text: string): string | null {
  const parts = splitWholeExpiry(text)
  return parts ? `${parts.month}${parts.year.slice(-2)}` : null
}

/** A whole expiry split in two. */
export interface ExpiryParts {
  /** Two digits. */
  readonly month: string
  /** As given: two or four digits. */
  readonly year: string
}

/** The month and year of a whole expiry, or null. */
export function splitWholeExpiry(text: string): ExpiryParts | null {
  const match = /^\s*(\d{1,2})\s*[/.\-\s]\s*(\d{2}|\d{4})\s*$/.exec(text) ?? /^\s*(\d{2})(\d{4})\s*$/.exec(text)
  return match ? { month: match[1]!.padStart(2, '0'), year: match[2]! } : null
}

function whole(digits: string): EditResult {
  const value = EXPIRY_FORMAT.format(digits)
  return { value, caret: value.length }
}

/**
 * An MM/YY expiry field after an edit. The slash comes by itself after the month; a slash typed
 * after one digit makes it the month ("1/" -> "01/"); autofilled or pasted four-digit years are
 * shortened, never cut to the century. `null`: nothing changes.
 */
export function editExpiry(state: FieldState, edit: FieldEdit): EditResult | null {
  if (edit.kind === 'insert') {
    const replacesAll = state.selectionStart === 0 && state.selectionEnd === state.value.length
    const parsed = replacesAll ? parseWholeExpiry(edit.text) : null
    if (parsed) return whole(parsed)
    const digits = digitsOf(state.value)
    const atEnd = state.selectionStart === state.value.length
    if (/^[\s/.-]$/.test(edit.text) && digits.length === 1 && atEnd) return whole(`0${digits}`)
  }
  return editDigits(state, edit, EXPIRY_FORMAT)
}

/** An MM/YY field re-formatted as it stands (after autofill or an IME), the caret kept. */
export function reformatExpiry(state: FieldState): EditResult {
  const parsed = parseWholeExpiry(state.value)
  return parsed ? whole(parsed) : reformatDigits(state, EXPIRY_FORMAT)
}

const MONTH_FORMAT: DigitFormat = {
  maxDigits: () => 2,
  format: (digits) => digits,
  // "4" is April; completeMonth's "13" rule has no year here to move a digit to.
  adjust: (digits, caretDigits) => (/^[2-9]/.test(digits) ? completeMonth(digits.slice(0, 1), 1) : { digits, caretDigits }),
}
const YEAR_FORMAT: DigitFormat = { maxDigits: () => 4, format: (digits) => digits }

/** A separate month field after an edit: two digits, "4" becoming "04". */
export function editExpiryMonth(state: FieldState, edit: FieldEdit): EditResult | null {
  return editDigits(state, edit, MONTH_FORMAT)
}

/** A separate year field after an edit: two or four digits. */
export function editExpiryYear(state: FieldState, edit: FieldEdit): EditResult | null {
  return editDigits(state, edit, YEAR_FORMAT)
}

/** A separate month or year field re-formatted as it stands. */
export function reformatExpiryPart(state: FieldState, part: 'month' | 'year'): EditResult {
  return reformatDigits(state, part === 'month' ? MONTH_FORMAT : YEAR_FORMAT)
}

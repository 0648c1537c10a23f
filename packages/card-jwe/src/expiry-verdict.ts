import { readClock, type Clock } from './lib/clock.js'
import { textOf } from './lib/text.js'
import type { CardField, FieldRule } from './errors.js'
import type { FieldVerdict } from './verdict.js'

/** Cards are issued for a few years; anything further ahead is a typo. credit-card-type allows 19. */
export const MAX_EXPIRY_YEARS_AHEAD = 20

export interface ExpiryVerdict extends FieldVerdict {
  /** "01"-"12" once the month is complete, else null. */
  readonly month: string | null
  /** Four digits once the year is complete ("30" gives "2030"), else null. */
  readonly year: string | null
}

/** Expiry as one typed field ("3/30", "03 / 30", "03/2030", "0330") or as separate month and year. */
export type ExpiryInput = string | { readonly month: string | number; readonly year: string | number }

export interface ExpiryOptions {
  /** Clock for "not expired"; defaults to the real time. Expiry is compared in UTC. */
  readonly now?: Clock
}

// Month, optional spaces, one separator, optional spaces, year: "03 / 30", "3-2030", "03.30".
const WITH_SEPARATOR = /^(\d{0,2})\s*[/.\-\s]\s*(\d{0,4})$/

/** Splits "0330", "330", "032030" into month and year parts; a short input is still the month. */
function splitCompact(digits: string): [string, string] {
  const twoDigitMonth = /^(0[1-9]|1[0-2])/.test(digits)
  if (digits.length <= 1 || (digits.length === 2 && (twoDigitMonth || digits[0] === '0'))) return [digits, '']
  // "13" is 1/3..., "123" is 12/3..., "130" is 1/30; from six digits on only MMYYYY remains.
  return twoDigitMonth || digits.length >= 6 ? [digits.slice(0, 2), digits.slice(2)] : [digits.slice(0, 1), digits.slice(1)]
}

/** The years a partial year could still become, as two-digit (20YY) or four-digit entries. */
function yearCompletions(part: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  for (const width of [2, 4]) {
    if (part.length > width) continue
    const scale = 10 ** (width - part.length)
    const low = (part === '' ? 0 : Number(part)) * scale + (width === 2 ? 2000 : 0)
    ranges.push([low, low + scale - 1])
  }
  return ranges
}

function partsOf(input: ExpiryInput): { month: string; year: string; combined: boolean } | null {
  if (typeof input === 'object' && input !== null) {
    const part = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? String(v) : textOf(v).trim())
    return { month: part(input.month), year: part(input.year), combined: false }
  }
  const text = textOf(input).trim()
  if (/^\d*$/.test(text)) {
    const [month, year] = splitCompact(text)
    return { month, year, combined: true }
  }
  const m = WITH_SEPARATOR.exec(text)
  return m ? { month: m[1]!, year: m[2]!, combined: true } : null
}

/** Verdict on a card's expiry date as typed so far. Never throws on user input. */
export function expiryVerdict(input: ExpiryInput, options: ExpiryOptions = {}): ExpiryVerdict {
  const parts = partsOf(input)
  const combined = parts?.combined ?? true
  const fail = (part: 'month' | 'year' | 'date', rule: FieldRule, isPotentiallyValid: boolean): ExpiryVerdict => {
    const field: CardField = combined || part === 'date' ? 'expiry' : part === 'month' ? 'expiryMonth' : 'expiryYear'
    return { isValid: false, isPotentiallyValid, rule, field, month: null, year: null }
  }
  if (!parts) return fail('date', 'characters', false)
  const { month: monthPart, year: yearPart } = parts

  if (monthPart === '') return fail('month', 'required', true)
  if (!/^\d{1,2}$/.test(monthPart)) return fail('month', 'characters', false)
  const month = Number(monthPart)
  // A lone "0" or "1" typed in one field may still become 01-12.
  const monthTyping = combined && yearPart === '' && monthPart.length === 1 && month <= 1
  if (!monthTyping && (month < 1 || month > 12)) return fail('month', 'month', false)
  if (yearPart === '') return fail('year', 'required', true)
  if (!/^\d{1,4}$/.test(yearPart)) return fail('year', yearPart.length > 4 ? 'format' : 'characters', false)

  const now = readClock(options.now)
  const thisYear = now.getUTCFullYear()
  const lastYear = thisYear + MAX_EXPIRY_YEARS_AHEAD
  const longerStillFits = yearCompletions(yearPart).some(([low, high]) => high - low > 0 && low <= lastYear && high >= thisYear)
  if (yearPart.length === 1 || yearPart.length === 3) return fail('year', 'format', longerStillFits)

  const year = yearPart.length === 2 ? 2000 + Number(yearPart) : Number(yearPart)
  // A card is good through the last day of its expiry month.
  if (year < thisYear || (year === thisYear && month < now.getUTCMonth() + 1)) return fail('date', 'expired', longerStillFits)
  if (year > lastYear) return fail('date', 'too-far-ahead', longerStillFits)
  return { isValid: true, isPotentiallyValid: true, month: String(month).padStart(2, '0'), year: String(year) }
}

import { readClock, type Clock } from './lib/clock.js'
import { textOf } from './lib/text.js'
import { verdictOf, type FieldVerdict } from './verdict.js'
import type { CardField, FieldRule } from './errors.js'

/** Cards are issued for a few years; anything further ahead is a typo. credit-card-type allows 19. */
export const MAX_EXPIRY_YEARS_AHEAD = 20

export interface ExpiryVerdict extends FieldVerdict {
  /** "01"-"12" once the month is complete, else null. */
  readonly month: string | null
  /** Four digits once the year is complete ("30" gives "2030"), else null. */
  readonly year: string | null
}

/** Expiry as one typed field ("3/30", "03 / 30", "03/2030", "0330") or as separate month and year. */
export type ExpiryInput =
  | string
  | {
      /** Month as typed: "3", "03" or 3. */
      readonly month: string | number
      /** Year as typed: "30", "2030" or 2030. */
      readonly year: string | number
    }

/** The latest time zone on earth (UTC-12): a card's month ends there last. */
const LATEST_ZONE_MS = 12 * 3_600_000

/** Options of {@link expiryVerdict}. */
export interface ExpiryOptions {
  /**
   * Clock for "not expired"; defaults to the real time (also when undefined). A card is expired once
   * its month has ended everywhere (in UTC-12), so no shopper's own last day of the month is refused.
   */
  readonly now?: Clock | undefined
}

/** Splits "0330", "330", "032030" into month and year; "13" is 1/3..., a short input is still the month. */
function splitCompact(digits: string): [string, string] {
  const twoDigitMonth = /^(0[1-9]|1[0-2])/.test(digits)
  if (digits.length < 2 || (digits.length === 2 && (twoDigitMonth || digits[0] === '0'))) return [digits, '']
  const at = twoDigitMonth || digits.length > 5 ? 2 : 1
  return [digits.slice(0, at), digits.slice(at)]
}

/** Verdict on a card's expiry date as typed so far. Never throws on user input. */
export function expiryVerdict(input: ExpiryInput, options: ExpiryOptions = {}): ExpiryVerdict {
  const separate = typeof input === 'object' && input !== null
  let month: string
  let year: string
  if (separate) {
    const part = (v: unknown) => (typeof v === 'number' ? String(v) : textOf(v).trim())
    ;[month, year] = [part(input.month), part(input.year)]
  } else {
    // Month, one separator ("/", "-", "." or a space) with optional spaces around it, year.
    const text = textOf(input).trim()
    const m = /^(\d*)\s*[/.\-\s]\s*(\d*)$/.exec(text)
    ;[month, year] = m ? [m[1]!, m[2]!] : /^\d*$/.test(text) ? splitCompact(text) : ['?', '']
  }
  const fail = (field: CardField, rule: FieldRule, isPotentiallyValid: boolean): ExpiryVerdict =>
    verdictOf(separate ? field : 'expiry', false, isPotentiallyValid, rule, { month: null, year: null })

  if (!month) return fail('expiryMonth', 'required', true)
  if (!/^\d\d?$/.test(month)) return fail('expiryMonth', 'characters', false)
  const monthNumber = Number(month)
  // A lone "0" or "1" typed in one field may still become 01-12.
  const stillTyping = !separate && !year && month.length < 2 && monthNumber < 2
  if (!stillTyping && (monthNumber < 1 || monthNumber > 12)) return fail('expiryMonth', 'month', false)
  if (!year) return fail('expiryYear', 'required', true)
  if (!/^\d+$/.test(year)) return fail('expiryYear', 'characters', false)

  const now = readClock(options.now)
  const thisYear = now.getUTCFullYear()
  const lastYear = thisYear + MAX_EXPIRY_YEARS_AHEAD
  // Could more digits still make a valid year? "2" may become 20YY or 2YYY; "20" may become 20YY.
  const longerFits = [2, 4].some((width) => {
    const scale = 10 ** (width - year.length)
    const low = Number(year) * scale + (width === 2 ? 2000 : 0)
    return scale > 1 && low <= lastYear && low + scale > thisYear
  })
  if (year.length !== 2 && year.length !== 4) return fail('expiryYear', 'format', longerFits)

  const fullYear = Number(year) + (year.length === 2 ? 2000 : 0)
  // A card is good through the last day of its expiry month, wherever that day ends last.
  const ended = new Date(now.getTime() - LATEST_ZONE_MS)
  const endedYear = ended.getUTCFullYear()
  if (fullYear < endedYear || (fullYear === endedYear && monthNumber <= ended.getUTCMonth())) return fail('expiry', 'expired', longerFits)
  if (fullYear > lastYear) return fail('expiry', 'too-far-ahead', longerFits)
  return verdictOf('expiry', true, true, 'expired', { month: month.padStart(2, '0'), year: String(fullYear) })
}

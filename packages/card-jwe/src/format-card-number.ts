import { numberVerdict } from './number-verdict.js'
import { stripSeparators } from './lib/text.js'

// Brands not yet known are shown in fours, like most numbers.
const DEFAULT_GAPS: readonly number[] = [4, 8, 12]

/** The digits typed so far, grouped with spaces at the brand's gaps ("3782 822463 10005" for Amex). */
export function formatCardNumber(value: string): string {
  const digits = stripSeparators(typeof value === 'string' ? value : '').replace(/\D/g, '')
  const gaps = numberVerdict(digits).brand?.gaps ?? DEFAULT_GAPS
  let out = ''
  for (let i = 0; i < digits.length; i++) out += (gaps.includes(i) ? ' ' : '') + digits[i]
  return out
}

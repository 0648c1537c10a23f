import { FOUR_DIGIT_GAPS } from './brands.js'
import { numberVerdict } from './number-verdict.js'
import { stripSeparators } from './lib/text.js'

/** The digits typed so far, grouped with spaces at the brand's gaps ("3782 822463 10005" for Amex). */
export function formatCardNumber(value: string): string {
  const digits = stripSeparators(typeof value === 'string' ? value : '').replace(/\D/g, '')
  const gaps = numberVerdict(digits).brand?.gaps ?? FOUR_DIGIT_GAPS
  let out = ''
  for (let i = 0; i < digits.length; i++) out += (gaps.includes(i) ? ' ' : '') + digits[i]
  return out
}

import { MAX_CARD_NUMBER_LENGTH, type CardBrand } from './brands.js'
import { passesLuhn } from './lib/luhn.js'
import { chooseBrand, matchBrands } from './lib/match-brands.js'
import { isDigits, stripSeparators, textOf } from './lib/text.js'
import { verdictOf, type FieldVerdict } from './verdict.js'

export interface NumberVerdict extends FieldVerdict {
  /** The brand the digits identify, or null while unknown or ambiguous. */
  readonly brand: CardBrand | null
  /** Every brand the digits typed so far could still belong to. */
  readonly candidates: readonly CardBrand[]
}

/** Verdict on a card number as typed so far; spaces and dashes between digits are fine. Never throws. */
export function numberVerdict(value: string): NumberVerdict {
  const digits = stripSeparators(textOf(value))
  const matches = isDigits(digits) && digits.length <= MAX_CARD_NUMBER_LENGTH ? matchBrands(digits) : []
  const candidates = matches.map((m) => m.brand)
  const brand = chooseBrand(matches)
  const verdict = (isValid: boolean, isPotentiallyValid: boolean, rule: Parameters<typeof verdictOf>[3]) =>
    verdictOf('number', isValid, isPotentiallyValid, rule, { brand, candidates })

  if (digits === '') return verdict(false, true, 'required')
  if (!isDigits(digits)) return verdict(false, false, 'characters')
  if (digits.length > MAX_CARD_NUMBER_LENGTH) return verdict(false, false, 'length')
  if (!candidates.length) return verdict(false, false, 'brand')
  // Visa allows 16, 18 and 19 digits: a valid 16-digit number may still grow.
  const canGrow = digits.length < Math.max(...(brand ?? { lengths: candidates.flatMap((c) => c.lengths) }).lengths)
  if (!brand) return verdict(false, canGrow, 'length')
  const lengthFits = brand.lengths.includes(digits.length)
  const luhnFits = !brand.luhn || passesLuhn(digits)
  return verdict(lengthFits && luhnFits, lengthFits && luhnFits ? true : canGrow, lengthFits ? 'luhn' : 'length')
}

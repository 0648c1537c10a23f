import { MAX_CARD_NUMBER_LENGTH, type CardBrand } from './brands.js'
import { passesLuhn } from './lib/luhn.js'
import { chooseBrand, matchBrands } from './lib/match-brands.js'
import { isDigits, stripSeparators, textOf } from './lib/text.js'
import type { FieldRule } from './errors.js'
import type { FieldVerdict } from './verdict.js'

export interface NumberVerdict extends FieldVerdict {
  /** The brand the digits identify, or null while unknown or ambiguous. */
  readonly brand: CardBrand | null
  /** Every brand the digits typed so far could still belong to. */
  readonly candidates: readonly CardBrand[]
}

function numberVerdictOf(
  isValid: boolean,
  isPotentiallyValid: boolean,
  rule: FieldRule,
  brand: CardBrand | null = null,
  candidates: readonly CardBrand[] = [],
): NumberVerdict {
  return isValid
    ? { isValid, isPotentiallyValid, brand, candidates }
    : { isValid, isPotentiallyValid, rule, field: 'number', brand, candidates }
}

/** Verdict on a card number as typed so far; spaces and dashes between digits are fine. Never throws. */
export function numberVerdict(value: string): NumberVerdict {
  const digits = stripSeparators(textOf(value))
  if (digits === '') return numberVerdictOf(false, true, 'required')
  if (!isDigits(digits)) return numberVerdictOf(false, false, 'characters')
  if (digits.length > MAX_CARD_NUMBER_LENGTH) return numberVerdictOf(false, false, 'length')

  const matches = matchBrands(digits)
  const candidates = matches.map((m) => m.brand)
  if (candidates.length === 0) return numberVerdictOf(false, false, 'brand')
  const brand = chooseBrand(matches)
  if (!brand) {
    const longest = Math.max(...candidates.flatMap((c) => c.lengths))
    return numberVerdictOf(false, digits.length < longest, 'length', null, candidates)
  }

  const lengthFits = brand.lengths.includes(digits.length)
  const luhnFits = !brand.luhn || passesLuhn(digits)
  // Visa allows 16, 18 and 19 digits: a valid 16-digit number may still grow.
  const canGrow = digits.length < Math.max(...brand.lengths)
  if (lengthFits && luhnFits) return numberVerdictOf(true, true, 'length', brand, candidates)
  return numberVerdictOf(false, canGrow, lengthFits ? 'luhn' : 'length', brand, candidates)
}

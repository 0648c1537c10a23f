import { CARD_BRANDS, type CardBrand } from '../brands.js'

interface BrandMatch {
  readonly brand: CardBrand
  /** Length of the longest pattern the digits fully cover; 0 when they only start one. */
  readonly strength: number
}

/**
 * How strongly `digits` match one pattern: -1 no match, 0 a prefix of the pattern (still typing),
 * otherwise the pattern's length. Ranges compare as strings, which is numeric for equal lengths.
 */
function patternStrength(digits: string, pattern: string): number {
  const dash = pattern.indexOf('-')
  const min = dash < 0 ? pattern : pattern.slice(0, dash)
  const max = dash < 0 ? pattern : pattern.slice(dash + 1)
  const n = Math.min(digits.length, min.length)
  const head = digits.slice(0, n)
  if (head < min.slice(0, n) || head > max.slice(0, n)) return -1
  return digits.length >= min.length ? min.length : 0
}

/** Every brand the digits typed so far could belong to, with how strongly each matches. */
export function matchBrands(digits: string, brands: readonly CardBrand[] = CARD_BRANDS): BrandMatch[] {
  const matches: BrandMatch[] = []
  for (const brand of brands) {
    let strength = -1
    for (const pattern of brand.patterns) strength = Math.max(strength, patternStrength(digits, pattern))
    if (strength >= 0) matches.push({ brand, strength })
  }
  return matches
}

/**
 * The one brand the digits identify, or null while they are ambiguous. With several candidates the
 * strongest wins, but only once the digits fully cover a pattern of every candidate
 * (credit-card-type's rule), so "6" stays open while "6011" is Discover.
 */
export function chooseBrand(matches: readonly BrandMatch[]): CardBrand | null {
  if (matches.length === 1) return matches[0]!.brand
  if (matches.length === 0 || matches.some((m) => m.strength === 0)) return null
  let best = matches[0]!
  for (const m of matches) if (m.strength > best.strength) best = m
  return matches.filter((m) => m.strength === best.strength).length === 1 ? best.brand : null
}

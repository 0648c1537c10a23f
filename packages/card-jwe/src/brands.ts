/**
 * The card brands card-jwe recognises, as one frozen data table.
 *
 * Prefix patterns follow the shape of braintree/credit-card-type: a pattern is a prefix ("4") or an
 * inclusive range of prefixes of equal length ("51-55"). When several brands match, the longest
 * matching pattern wins (a Bancontact "6703" beats Maestro's "6"); when the number is still too
 * short to tell, no brand is chosen yet. Sources: the networks' published IIN ranges as collected
 * by credit-card-type (MIT), and the processor's card documentation for Bancontact.
 */

/** Identifier of a supported brand. */
export type CardBrandType =
  | 'visa'
  | 'mastercard'
  | 'american-express'
  | 'discover'
  | 'diners-club'
  | 'jcb'
  | 'unionpay'
  | 'maestro'
  | 'bancontact'

/** What the brand calls its security code and how many digits it has. */
export interface SecurityCodeSpec {
  /** The brand's own name for it: CVV, CVC, CID, CVN. */
  readonly name: string
  /** Digits the code has. */
  readonly size: 3 | 4
}

/** One row of the brand table: how to recognise, format and check a brand's numbers. */
export interface CardBrand {
  /** Stable identifier; a shop maps it to the name and logo it shows, in its own language. */
  readonly type: CardBrandType
  /** Prefixes ("4") or equal-length prefix ranges ("51-55"). */
  readonly patterns: readonly string[]
  /** Positions after which a display inserts a space: [4, 8, 12] gives "4111 1111 1111 1111". */
  readonly gaps: readonly number[]
  /** Allowed numbers of digits. */
  readonly lengths: readonly number[]
  /** Whether numbers of this brand must pass the Luhn check (UnionPay issues some that do not). */
  readonly luhn: boolean
  /** The security code, or null for brands whose cards carry none. */
  readonly code: SecurityCodeSpec | null
}

/** Groups of four: the gaps of most brands, and of a number whose brand is not known yet. */
export const FOUR_DIGIT_GAPS: readonly number[] = Object.freeze([4, 8, 12])

/** Freezes the table and everything in it, so no page script can alter a brand. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') Object.values(value).forEach(deepFreeze)
  return Object.freeze(value)
}

/** The brand table, frozen; detection takes the longest matching prefix, so order does not matter. */
export const CARD_BRANDS: readonly CardBrand[] = deepFreeze([
  {
    type: 'visa',
    patterns: ['4'],
    gaps: FOUR_DIGIT_GAPS,
    lengths: [16, 18, 19],
    luhn: true,
    code: { name: 'CVV', size: 3 },
  },
  {
    type: 'mastercard',
    // 2-series (2221-2720) alongside the classic 51-55.
    patterns: ['51-55', '2221-2229', '223-229', '23-26', '270-271', '2720'],
    gaps: FOUR_DIGIT_GAPS,
    lengths: [16],
    luhn: true,
    code: { name: 'CVC', size: 3 },
  },
  {
    type: 'american-express',
    patterns: ['34', '37'],
    gaps: [4, 10],
    lengths: [15],
    luhn: true,
    code: { name: 'CID', size: 4 },
  },
  {
    type: 'discover',
    patterns: ['6011', '644-649', '65'],
    gaps: FOUR_DIGIT_GAPS,
    lengths: [16, 19],
    luhn: true,
    code: { name: 'CID', size: 3 },
  },
  {
    type: 'diners-club',
    patterns: ['300-305', '36', '38', '39'],
    gaps: [4, 10],
    lengths: [14, 16, 19],
    luhn: true,
    code: { name: 'CVV', size: 3 },
  },
  {
    type: 'jcb',
    patterns: ['2131', '1800', '3528-3589'],
    gaps: FOUR_DIGIT_GAPS,
    lengths: [16, 17, 18, 19],
    luhn: true,
    code: { name: 'CVV', size: 3 },
  },
  {
    type: 'unionpay',
    patterns: ['62', '81'],
    gaps: FOUR_DIGIT_GAPS,
    lengths: [14, 15, 16, 17, 18, 19],
    luhn: false,
    code: { name: 'CVN', size: 3 },
  },
  {
    type: 'maestro',
    // "6" is the catch-all for 6-prefixes no other brand claims, as credit-card-type does.
    patterns: ['493698', '500000-504174', '504176-506698', '506779-508999', '56-59', '63', '67', '6'],
    gaps: FOUR_DIGIT_GAPS,
    lengths: [12, 13, 14, 15, 16, 17, 18, 19],
    luhn: true,
    code: { name: 'CVC', size: 3 },
  },
  {
    type: 'bancontact',
    patterns: ['6703'],
    gaps: FOUR_DIGIT_GAPS,
    lengths: [16, 17, 18, 19],
    luhn: true,
    code: null,
  },
])

/** The longest number any brand allows; input beyond it can never become valid. */
export const MAX_CARD_NUMBER_LENGTH = 19

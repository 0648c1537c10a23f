import fc from 'fast-check'
import { CARD_BRANDS, numberVerdict, type CardBrand } from 'card-jwe'

/** A fixed seed makes every run, in Node and in the browser, explore the same cases: a failure replays. */
export const FC_PARAMS = { numRuns: 100, seed: 20261121 }

function luhnCheckDigit(body: string): string {
  let sum = 0
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i])
    if (i % 2 === 0) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return String((10 - (sum % 10)) % 10)
}

/** A prefix inside one of the brand's patterns ("51-55" gives 51..55). */
function prefixArbitrary(brand: CardBrand): fc.Arbitrary<string> {
  return fc.constantFrom(...brand.patterns).chain((pattern) => {
    const [min, max = min] = pattern.split('-') as [string, string?]
    return fc.integer({ min: Number(min), max: Number(max) }).map((n) => String(n).padStart(min.length, '0'))
  })
}

/** Card numbers that are valid for the brand they are built for (Luhn digit added where the brand uses it). */
export const validCardNumber: fc.Arbitrary<string> = fc
  .constantFrom(...CARD_BRANDS)
  .chain((brand) =>
    fc.tuple(
      fc.constant(brand),
      prefixArbitrary(brand),
      fc.constantFrom(...brand.lengths),
      fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 19, maxLength: 19 }),
    ),
  )
  .map(([brand, prefix, length, filler]) => {
    const body = (prefix + filler.join('')).slice(0, brand.luhn ? length - 1 : length)
    return brand.luhn ? body + luhnCheckDigit(body) : body
  })
  // A prefix of one brand can belong to a stronger pattern of another (Maestro's "6" vs "6011").
  .filter((n) => numberVerdict(n).isValid)

/** Inserts spaces and dashes between digits, as a shopper might type or paste them. */
export function withSeparators(digits: string): fc.Arbitrary<string> {
  return fc
    .array(fc.constantFrom('', '', ' ', '-', '  ', ' - '), { minLength: digits.length, maxLength: digits.length })
    .map((seps) => Array.from(digits, (d, i) => (i === 0 ? d : seps[i] + d)).join(''))
}

/** A whole card as typed: separators in the number, month and year in any accepted form. */
export const typedCard = validCardNumber
  .chain((digits) => {
    const brand = numberVerdict(digits).brand!
    const code = brand.code ? fc.stringMatching(new RegExp(`^[0-9]{${brand.code.size}}$`)) : fc.constant('')
    const thisYear = new Date().getUTCFullYear()
    return fc.record({
      digits: fc.constant(digits),
      number: withSeparators(digits),
      month: fc.integer({ min: 1, max: 12 }),
      year: fc.integer({ min: thisYear + 1, max: thisYear + 15 }),
      twoDigitYear: fc.boolean(),
      padMonth: fc.boolean(),
      securityCode: code,
      holderName: fc.constantFrom('', 'A. Shopper', 'Jean-Luc O\u2019Neill', '  Zo\u00eb  '),
    })
  })
  .map((c) => ({
    digits: c.digits,
    input: {
      number: c.number,
      expiryMonth: c.padMonth ? String(c.month).padStart(2, '0') : String(c.month),
      expiryYear: c.twoDigitYear ? String(c.year % 100).padStart(2, '0') : String(c.year),
      securityCode: c.securityCode,
      holderName: c.holderName,
    },
  }))

/** Whether `text` holds six or more consecutive digits of the card number: a leak. */
export function leaksCardDigits(text: string, cardDigits: string): boolean {
  for (const run of text.match(/[0-9]{6,}/g) ?? []) {
    for (let i = 0; i + 6 <= run.length; i++) if (cardDigits.includes(run.slice(i, i + 6))) return true
  }
  return false
}

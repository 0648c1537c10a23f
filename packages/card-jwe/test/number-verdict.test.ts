import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatCardNumber, numberVerdict } from 'card-jwe'
import { FC_PARAMS, validCardNumber, withSeparators } from './support/cards.js'

const brandOf = (value: string) => numberVerdict(value).brand?.type ?? null

describe('numberVerdict', () => {
  it('accepts a complete number with spaces and dashes', () => {
    const v = numberVerdict('4111 1111-4555 1142')
    expect(v).toMatchObject({ isValid: true, isPotentiallyValid: true })
    expect(v.brand?.type).toBe('visa')
    expect(v.rule).toBeUndefined()
  })

  it('treats an empty field as not yet valid, not as an error', () => {
    expect(numberVerdict('')).toMatchObject({ isValid: false, isPotentiallyValid: true, rule: 'required', field: 'number' })
    expect(numberVerdict('   ')).toMatchObject({ isValid: false, isPotentiallyValid: true, rule: 'required' })
  })

  it('keeps a partial number potentially valid', () => {
    expect(numberVerdict('4111 11')).toMatchObject({ isValid: false, isPotentiallyValid: true, rule: 'length' })
  })

  it('refuses letters and other characters outright', () => {
    expect(numberVerdict('4111 111a')).toMatchObject({ isValid: false, isPotentiallyValid: false, rule: 'characters' })
    expect(numberVerdict('4111.1111')).toMatchObject({ isPotentiallyValid: false, rule: 'characters' })
    // Arabic-Indic digits are digits to \p{Nd}, not to a card network.
    expect(numberVerdict('\u0664\u0661\u0661\u0661')).toMatchObject({ isPotentiallyValid: false, rule: 'characters' })
  })

  it('refuses a prefix no brand uses', () => {
    expect(numberVerdict('9')).toMatchObject({ isValid: false, isPotentiallyValid: false, rule: 'brand', brand: null })
  })

  it('fails the Luhn check only once the length is complete', () => {
    expect(numberVerdict('4111111145551143')).toMatchObject({ isValid: false, isPotentiallyValid: true, rule: 'luhn' })
    // American Express stops at 15 digits, so a bad check digit there is final.
    expect(numberVerdict('370000000000003')).toMatchObject({ isValid: false, isPotentiallyValid: false, rule: 'luhn' })
  })

  it('refuses more digits than any brand allows', () => {
    expect(numberVerdict('41111111111111111111')).toMatchObject({ isPotentiallyValid: false, rule: 'length' })
    expect(numberVerdict('3700000000000020')).toMatchObject({ isPotentiallyValid: false, rule: 'length' })
  })

  it('leaves a 16-digit Visa room to grow to 19', () => {
    expect(numberVerdict('4111111111111111')).toMatchObject({ isValid: true, isPotentiallyValid: true })
    expect(numberVerdict('41111111111111111')).toMatchObject({ isValid: false, isPotentiallyValid: true, rule: 'length' })
  })

  it('does not require Luhn for UnionPay', () => {
    expect(numberVerdict('6212345678901234')).toMatchObject({ isValid: true })
  })

  it('identifies brands by their longest matching prefix', () => {
    // Maestro owns 493698, so a lone 4 could still be either.
    expect(brandOf('4')).toBe(null)
    expect(brandOf('41')).toBe('visa')
    expect(brandOf('51')).toBe('mastercard')
    expect(brandOf('2221')).toBe('mastercard')
    expect(brandOf('2720')).toBe('mastercard')
    expect(brandOf('2721')).toBe(null)
    expect(brandOf('34')).toBe('american-express')
    expect(brandOf('6011')).toBe('discover')
    expect(brandOf('65')).toBe('discover')
    expect(brandOf('36')).toBe('diners-club')
    expect(brandOf('3528')).toBe('jcb')
    expect(brandOf('62')).toBe('unionpay')
    expect(brandOf('6703')).toBe('bancontact')
    expect(brandOf('6771')).toBe('maestro')
    expect(brandOf('5018')).toBe('maestro')
  })

  it('waits for more digits while a prefix is ambiguous', () => {
    const v = numberVerdict('6')
    expect(v).toMatchObject({ isValid: false, isPotentiallyValid: true, brand: null })
    expect(v.candidates.map((b) => b.type).sort()).toEqual(['bancontact', 'discover', 'maestro', 'unionpay'])
    expect(brandOf('601')).toBe(null)
  })

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.anything()), (value) => {
        const v = numberVerdict(value as string)
        expect(typeof v.isValid).toBe('boolean')
        expect(v.isValid && !v.isPotentiallyValid).toBe(false)
      }),
      FC_PARAMS,
    )
  })

  it('accepts every generated valid number however it is separated', () => {
    fc.assert(
      fc.property(
        validCardNumber.chain((d) => fc.tuple(fc.constant(d), withSeparators(d))),
        ([digits, typed]) => {
          const v = numberVerdict(typed)
          expect(v.isValid).toBe(true)
          expect(v.brand).toBe(numberVerdict(digits).brand)
        },
      ),
      FC_PARAMS,
    )
  })
})

describe('formatCardNumber', () => {
  it('groups digits at the brand gaps', () => {
    expect(formatCardNumber('4111111145551142')).toBe('4111 1111 4555 1142')
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005')
    expect(formatCardNumber('36006666333344')).toBe('3600 666633 3344')
    expect(formatCardNumber('4111-11')).toBe('4111 11')
    expect(formatCardNumber('')).toBe('')
  })

  it('keeps only digits, and formatting twice changes nothing', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const once = formatCardNumber(s)
        expect(once).toMatch(/^[0-9 ]*$/)
        expect(formatCardNumber(once)).toBe(once)
      }),
      FC_PARAMS,
    )
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  CURRENCY_TABLE_SOURCE,
  fromMinorUnits,
  ISO_4217_MINOR_UNITS,
  toMinorUnits,
  type ValidationError,
} from '@card-jwe/payment-validator'

const codeOf = (fn: () => unknown) => {
  try {
    fn()
  } catch (error) {
    return (error as ValidationError).code
  }
  return 'no error'
}

describe('currency table', () => {
  it('names its source and date and holds the currencies in use', () => {
    expect(CURRENCY_TABLE_SOURCE).toMatch(/ISO 4217.*2025-03/)
    expect(Object.keys(ISO_4217_MINOR_UNITS).length).toBeGreaterThan(150)
    expect(ISO_4217_MINOR_UNITS).toMatchObject({ EUR: 2, USD: 2, JPY: 0, KRW: 0, KWD: 3, BHD: 3, CLF: 4, UYW: 4, XCG: 2, ZWG: 2 })
    for (const withdrawn of ['ANG', 'HRK', 'CUC', 'SLL', 'ZWL', 'MRO', 'VEF', 'XAU', 'XTS'])
      expect(ISO_4217_MINOR_UNITS, withdrawn).not.toHaveProperty(withdrawn)
    expect(Object.isFrozen(ISO_4217_MINOR_UNITS)).toBe(true)
  })
})

describe('toMinorUnits and fromMinorUnits', () => {
  it.each([
    ['28.00', 'EUR', 2800],
    ['28', 'EUR', 2800],
    ['28.5', 'EUR', 2850],
    ['0.01', 'EUR', 1],
    ['1500', 'JPY', 1500],
    ['1.234', 'KWD', 1234],
    ['0.0001', 'CLF', 1],
    ['90071992547409.91', 'USD', Number.MAX_SAFE_INTEGER],
  ])('"%s" %s is %i minor units', (decimal, currency, minor) => {
    expect(toMinorUnits(decimal, currency)).toBe(minor)
  })

  it('writes minor units back as the currency shows them', () => {
    expect(fromMinorUnits(2800, 'EUR')).toBe('28.00')
    expect(fromMinorUnits(5, 'EUR')).toBe('0.05')
    expect(fromMinorUnits(1500, 'JPY')).toBe('1500')
    expect(fromMinorUnits(1234, 'KWD')).toBe('1.234')
  })

  it('never goes through floating point: 0.1 + 0.2 style inputs stay exact', () => {
    expect(toMinorUnits('0.30', 'EUR')).toBe(30)
    expect(toMinorUnits('1.15', 'EUR')).toBe(115) // 1.15 * 100 is 114.99999999999999 in floats
    expect(toMinorUnits('4.35', 'EUR')).toBe(435)
  })

  it('refuses what is not a plain amount in that currency', () => {
    for (const bad of ['28.001', '-1', '1e3', '28,00', ' 28', '28.', '.5', '', '0x10', 'NaN'])
      expect(
        codeOf(() => toMinorUnits(bad, 'EUR')),
        bad,
      ).toBe('ERR_AMOUNT_FORMAT')
    expect(codeOf(() => toMinorUnits('1.5', 'JPY'))).toBe('ERR_AMOUNT_FORMAT')
    expect(codeOf(() => toMinorUnits('90071992547409.92', 'USD'))).toBe('ERR_AMOUNT_FORMAT')
    expect(codeOf(() => toMinorUnits('1', 'EURO'))).toBe('ERR_UNKNOWN_CURRENCY')
    expect(codeOf(() => toMinorUnits('1', 'XAU'))).toBe('ERR_UNKNOWN_CURRENCY')
    expect(codeOf(() => fromMinorUnits(1.5, 'EUR'))).toBe('ERR_AMOUNT_FORMAT')
    expect(codeOf(() => fromMinorUnits(-1, 'EUR'))).toBe('ERR_AMOUNT_FORMAT')
    expect(codeOf(() => fromMinorUnits(2 ** 53, 'EUR'))).toBe('ERR_AMOUNT_FORMAT')
  })

  it('takes a processor’s overrides instead of ISO’s digits', () => {
    expect(toMinorUnits('100.50', 'ISK', { ISK: 2 })).toBe(10050)
    expect(codeOf(() => toMinorUnits('100.50', 'ISK'))).toBe('ERR_AMOUNT_FORMAT')
    expect(fromMinorUnits(10050, 'ISK', { ISK: 2 })).toBe('100.50')
  })

  it('round-trips minor units through decimal text for every currency in the table', () => {
    const currencies = Object.keys(ISO_4217_MINOR_UNITS)
    fc.assert(
      fc.property(fc.constantFrom(...currencies), fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.maxSafeNat()), (currency, minor) => {
        const text = fromMinorUnits(minor, currency)
        expect(text).toMatch(ISO_4217_MINOR_UNITS[currency] === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${ISO_4217_MINOR_UNITS[currency]}}$`))
        expect(toMinorUnits(text, currency)).toBe(minor)
      }),
      { numRuns: 2000, seed: 20261121 },
    )
  })

  it('round-trips every currency at its own edges', () => {
    for (const currency of Object.keys(ISO_4217_MINOR_UNITS)) {
      for (const minor of [0, 1, 9, 10, 99, 100, 101, Number.MAX_SAFE_INTEGER]) {
        expect(toMinorUnits(fromMinorUnits(minor, currency), currency), `${currency} ${minor}`).toBe(minor)
      }
    }
  })
})

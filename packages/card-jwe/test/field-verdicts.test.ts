import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CARD_BRANDS, holderNameVerdict, MAX_HOLDER_NAME_LENGTH, securityCodeVerdict } from 'card-jwe'
import { FC_PARAMS } from './support/cards.js'

const brand = (type: string) => CARD_BRANDS.find((b) => b.type === type)!

describe('securityCodeVerdict', () => {
  it('wants three digits for most brands and four for American Express', () => {
    expect(securityCodeVerdict('737', brand('visa')).isValid).toBe(true)
    expect(securityCodeVerdict('7373', brand('visa'))).toMatchObject({
      isValid: false,
      isPotentiallyValid: false,
      rule: 'length',
      field: 'securityCode',
    })
    expect(securityCodeVerdict('7373', brand('american-express')).isValid).toBe(true)
    expect(securityCodeVerdict('737', brand('american-express'))).toMatchObject({
      isValid: false,
      isPotentiallyValid: true,
      rule: 'length',
    })
  })

  it('wants nothing for a brand without a code', () => {
    expect(securityCodeVerdict('', brand('bancontact')).isValid).toBe(true)
    expect(securityCodeVerdict('737', brand('bancontact'))).toMatchObject({ isValid: false, isPotentiallyValid: false, rule: 'length' })
  })

  it('takes three or four digits while the brand is unknown', () => {
    expect(securityCodeVerdict('737').isValid).toBe(true)
    expect(securityCodeVerdict('7373').isValid).toBe(true)
    expect(securityCodeVerdict('73737')).toMatchObject({ isValid: false, isPotentiallyValid: false })
  })

  it('treats empty as required and letters as wrong', () => {
    expect(securityCodeVerdict('', brand('visa'))).toMatchObject({ isValid: false, isPotentiallyValid: true, rule: 'required' })
    expect(securityCodeVerdict('7a7', brand('visa'))).toMatchObject({ isPotentiallyValid: false, rule: 'characters' })
  })

  it('never throws', () => {
    fc.assert(
      fc.property(fc.anything(), fc.option(fc.constantFrom(...CARD_BRANDS)), (value, b) => {
        expect(typeof securityCodeVerdict(value as string, b).isValid).toBe('boolean')
      }),
      FC_PARAMS,
    )
  })
})

describe('holderNameVerdict', () => {
  it('is optional', () => {
    expect(holderNameVerdict('')).toEqual({ isValid: true, isPotentiallyValid: true })
  })

  it('accepts names from many scripts', () => {
    for (const name of ['A. Shopper', 'Jean-Luc O\u2019Neill', 'Zo\u00eb Saldana', '\u5f20\u4f1f', '\u0410\u043d\u043d\u0430']) {
      expect(holderNameVerdict(name).isValid, name).toBe(true)
    }
  })

  it('refuses digits (where a pasted card number would land) and control characters', () => {
    expect(holderNameVerdict('4111 1111 1111 1111')).toMatchObject({
      isValid: false,
      isPotentiallyValid: false,
      rule: 'characters',
      field: 'holderName',
    })
    expect(holderNameVerdict('A\u0000B')).toMatchObject({ rule: 'characters' })
  })

  it(`refuses more than ${MAX_HOLDER_NAME_LENGTH} characters`, () => {
    expect(holderNameVerdict('a'.repeat(MAX_HOLDER_NAME_LENGTH)).isValid).toBe(true)
    expect(holderNameVerdict('a'.repeat(MAX_HOLDER_NAME_LENGTH + 1))).toMatchObject({ isValid: false, rule: 'length' })
  })
})

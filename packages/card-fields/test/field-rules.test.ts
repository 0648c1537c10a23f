/**
 * The rules behind the fields, without a browser: which verdict each field gets, when it shows an
 * error and in which words, and when auto-advance may leave it. attach-card-fields.ts only wires
 * these to the DOM; card-fields.browser.test.ts shows the same rules through real key presses.
 */
import { numberVerdict, type CardBrand } from 'card-jwe'
import { describe, expect, it } from 'vitest'
import { fieldsAfter, isComplete } from '../src/lib/auto-advance.ts'
import { checkInputs } from '../src/lib/check-inputs.ts'
import { errorMessage, isFlagged } from '../src/lib/error-message.ts'
import { fieldVerdict, securityCodeSize } from '../src/lib/field-verdict.ts'
import { CardFieldsError, MESSAGES_EN, type CardFieldInputs } from '../src/index.ts'

/** Fixed, so "expired" does not depend on the day the suite runs. */
const now = () => new Date('2026-11-21T10:00:00Z')
const brandOf = (number: string): CardBrand => numberVerdict(number).brand!
const VISA = brandOf('4111')
const AMEX = brandOf('3782')
const BANCONTACT = brandOf('6703')

describe('fieldVerdict: one verdict per field', () => {
  it('blames a month of 13 on the month field; the year field reads as fine', () => {
    const typed = { expiryMonth: '13', expiryYear: '30' }
    expect(fieldVerdict('expiryMonth', typed, { brand: null, now })).toMatchObject({ isValid: false, rule: 'month' })
    expect(fieldVerdict('expiryYear', typed, { brand: null, now })).toEqual({ isValid: true, isPotentiallyValid: true })
  })

  it('blames a month and year in the past on the year field, not the month', () => {
    const typed = { expiryMonth: '10', expiryYear: '26' }
    expect(fieldVerdict('expiryYear', typed, { brand: null, now })).toMatchObject({ isValid: false, rule: 'expired' })
    expect(fieldVerdict('expiryMonth', typed, { brand: null, now }).isValid).toBe(true)
  })

  it('judges "expired" by the clock it is given', () => {
    expect(fieldVerdict('expiry', { expiry: '11/26' }, { brand: null, now }).isValid).toBe(true)
    const december = () => new Date('2026-12-01T12:00:00Z') // November over everywhere
    expect(fieldVerdict('expiry', { expiry: '11/26' }, { brand: null, now: december })).toMatchObject({ isValid: false, rule: 'expired' })
  })

  it('judges the security code by the brand shown: four digits for American Express, none for Bancontact', () => {
    expect(fieldVerdict('securityCode', { securityCode: '123' }, { brand: VISA }).isValid).toBe(true)
    expect(fieldVerdict('securityCode', { securityCode: '123' }, { brand: AMEX }).isValid).toBe(false)
    expect(fieldVerdict('securityCode', { securityCode: '1234' }, { brand: AMEX }).isValid).toBe(true)
    expect(fieldVerdict('securityCode', { securityCode: '' }, { brand: BANCONTACT }).isValid).toBe(true)
    expect(fieldVerdict('securityCode', { securityCode: '1' }, { brand: BANCONTACT }).isValid).toBe(false)
  })

  it('reads a field it is not given as empty: fine for the optional name, required for the number', () => {
    expect(fieldVerdict('holderName', {}, { brand: null }).isValid).toBe(true)
    expect(fieldVerdict('number', {}, { brand: null })).toMatchObject({ isValid: false, isPotentiallyValid: true, rule: 'required' })
  })
})

describe('securityCodeSize', () => {
  it('is the brand’s code size, and 4 while the brand is unknown or has no code', () => {
    expect([securityCodeSize(VISA), securityCodeSize(AMEX), securityCodeSize(null), securityCodeSize(BANCONTACT)]).toEqual([3, 4, 4, 4])
  })
})

describe('isFlagged and errorMessage: when a field shows an error, and which', () => {
  const halfTyped = numberVerdict('4111')
  const hopeless = numberVerdict('4111x')

  it('leaves input that may still become valid alone while typing, and flags it after blur', () => {
    expect(halfTyped.isPotentiallyValid).toBe(true)
    expect(isFlagged(halfTyped, false)).toBe(false)
    expect(isFlagged(halfTyped, true)).toBe(true)
  })

  it('flags hopeless input already while typing', () => {
    expect(isFlagged(hopeless, false)).toBe(true)
  })

  it('never flags a valid value', () => {
    const valid = numberVerdict('4111111111111111')
    expect([isFlagged(valid, false), isFlagged(valid, true)]).toEqual([false, false])
  })

  it('says the broken rule’s own message, and the field’s "invalid" for a rule without one', () => {
    const messages = { invalid: 'Not a card number.', characters: 'Digits only.' }
    expect(errorMessage(hopeless, messages)).toBe('Digits only.')
    expect(errorMessage({ ...hopeless, rule: 'length' }, messages)).toBe('Not a card number.')
    expect(errorMessage(hopeless, MESSAGES_EN.errors.number)).toBe(
      MESSAGES_EN.errors.number.characters ?? MESSAGES_EN.errors.number.invalid,
    )
  })
})

describe('isComplete: when auto-advance may leave a field', () => {
  it('leaves a number only at its brand’s longest length (a 16-digit Visa may still reach 19)', () => {
    expect(isComplete('number', { number: '4111 1111 1111 1111' }, { brand: VISA })).toBe(false)
    expect(isComplete('number', { number: '4111 1111 1111 1111 110' }, { brand: VISA })).toBe(true)
    expect(isComplete('number', { number: '3782 822463 10005' }, { brand: AMEX })).toBe(true)
  })

  it('never leaves a number that fails its check digit, however long', () => {
    expect(isComplete('number', { number: '3782 822463 10006' }, { brand: AMEX })).toBe(false)
  })

  it('leaves a three-digit code for Visa, but not while the brand is unknown (it may be a four-digit CID)', () => {
    expect(isComplete('securityCode', { securityCode: '123' }, { brand: VISA })).toBe(true)
    expect(isComplete('securityCode', { securityCode: '123' }, { brand: null })).toBe(false)
  })

  it('leaves a month field at two digits, before the year is typed', () => {
    expect(isComplete('expiryMonth', { expiryMonth: '1', expiryYear: '' }, { brand: null, now })).toBe(false)
    expect(isComplete('expiryMonth', { expiryMonth: '12', expiryYear: '' }, { brand: null, now })).toBe(true)
  })

  it('leaves an expiry only when it is valid', () => {
    expect(isComplete('expiry', { expiry: '12/30' }, { brand: null, now })).toBe(true)
    expect(isComplete('expiry', { expiry: '10/26' }, { brand: null, now })).toBe(false)
    expect(isComplete('expiryYear', { expiryMonth: '12', expiryYear: '30' }, { brand: null, now })).toBe(true)
    expect(isComplete('expiryYear', { expiryMonth: '12', expiryYear: '203' }, { brand: null, now })).toBe(false)
  })

  it('never leaves the name on the card, which could always go on', () => {
    expect(fieldVerdict('holderName', { holderName: 'Jane Doe' }, { brand: null }).isValid).toBe(true)
    expect(isComplete('holderName', { holderName: 'Jane Doe' }, { brand: null })).toBe(false)
  })
})

describe('fieldsAfter: where auto-advance looks next', () => {
  it('lists the later fields in form order, nearest first, and none after the last', () => {
    expect(fieldsAfter('number')).toEqual(['expiry', 'expiryMonth', 'expiryYear', 'securityCode', 'holderName'])
    expect(fieldsAfter('expiryYear')).toEqual(['securityCode', 'holderName'])
    expect(fieldsAfter('holderName')).toEqual([])
  })
})

describe('checkInputs: mistakes in the call, refused before any listener is added', () => {
  const text = { type: 'text' } as HTMLInputElement

  it('refuses a number input (no caret to keep), naming the option', () => {
    const fields = { number: { type: 'number' } as HTMLInputElement }
    expect(() => checkInputs(fields)).toThrow(CardFieldsError)
    expect(() => checkInputs(fields)).toThrow(/^fields\.number: /)
  })

  it('refuses a missing number and half a split expiry, and takes month and year together', () => {
    expect(() => checkInputs({} as CardFieldInputs)).toThrow('fields.number: required')
    expect(() => checkInputs({ number: text, expiryMonth: text })).toThrow('fields.expiryYear: required')
    expect(() =>
      checkInputs({ number: text, expiryMonth: text, expiryYear: text, securityCode: { type: 'tel' } as HTMLInputElement }),
    ).not.toThrow()
  })
})

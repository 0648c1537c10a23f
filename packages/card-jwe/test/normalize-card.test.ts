import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CardJweError, checkCard, normalizeCard } from 'card-jwe'
import { FC_PARAMS, leaksCardDigits, typedCard, validCardNumber } from './support/cards.js'

const now = () => new Date('2026-11-21T12:00:00Z')
/** An invalid-card message holds field names and rules and nothing else. */
const ISSUE_MESSAGE = /^invalid card: [a-zA-Z]+ \([a-z-]+\)(, [a-zA-Z]+ \([a-z-]+\))*$/

function thrown(fn: () => unknown): CardJweError {
  try {
    fn()
  } catch (error) {
    if (error instanceof CardJweError) return error
    throw error
  }
  throw new Error('expected a CardJweError')
}

describe('normalizeCard', () => {
  it('turns typed input into the strict payload', () => {
    expect(
      normalizeCard(
        { number: '4111 1111-4555 1142', expiryMonth: '3', expiryYear: '30', securityCode: ' 737 ', holderName: ' A. Shopper ' },
        { now },
      ),
    ).toEqual({
      number: '4111111145551142',
      expiryMonth: '03',
      expiryYear: '2030',
      cvc: '737',
      holderName: 'A. Shopper',
    })
  })

  it('still reads the deprecated cvc key when securityCode is absent', () => {
    const typed = { number: '4111 1111 4555 1142', expiry: '03/30' }
    expect(normalizeCard({ ...typed, cvc: '737' }, { now })).toMatchObject({ cvc: '737' })
    expect(normalizeCard({ ...typed, securityCode: '737', cvc: '000' }, { now })).toMatchObject({ cvc: '737' })
  })

  it('reads a one-field expiry and leaves out an empty holder name and a code the brand lacks', () => {
    expect(normalizeCard({ number: '6703 4444 4444 4449', expiry: '03/30', securityCode: '', holderName: '' }, { now })).toEqual({
      number: '6703444444444449',
      expiryMonth: '03',
      expiryYear: '2030',
    })
  })

  it('lists every broken field and rule, and no value', () => {
    const error = thrown(() =>
      normalizeCard({ number: '4111 1111 4555 1143', expiryMonth: '13', expiryYear: '30', securityCode: '73', holderName: 'X1' }, { now }),
    )
    expect(error.code).toBe('ERR_CARD_INVALID')
    expect(error.issues).toEqual([
      { field: 'number', rule: 'luhn' },
      { field: 'expiryMonth', rule: 'month' },
      { field: 'securityCode', rule: 'length' },
      { field: 'holderName', rule: 'characters' },
    ])
    expect(error.message).toBe('invalid card: number (luhn), expiryMonth (month), securityCode (length), holderName (characters)')
  })

  it('asks for an expiry when none is given and refuses an expired one', () => {
    expect(checkCard({ number: '4111111145551142', securityCode: '737' }, { now })).toEqual({
      ok: false,
      issues: [{ field: 'expiry', rule: 'required' }],
    })
    expect(checkCard({ number: '4111111145551142', expiry: '10/26', securityCode: '737' }, { now })).toEqual({
      ok: false,
      issues: [{ field: 'expiry', rule: 'expired' }],
    })
  })

  it('refuses a card number given as a JSON number', () => {
    expect(checkCard({ number: 4111111145551142 as unknown as string, expiry: '03/30', securityCode: '737' }, { now })).toMatchObject({
      ok: false,
      issues: [{ field: 'number', rule: 'required' }],
    })
  })

  it('is a programming error, not a card error, to pass no object', () => {
    expect(thrown(() => normalizeCard(null as never)).code).toBe('ERR_INVALID_ARGUMENT')
  })

  it('is idempotent', () => {
    fc.assert(
      fc.property(typedCard, ({ input }) => {
        const once = normalizeCard(input)
        expect(normalizeCard(once)).toEqual(once)
      }),
      FC_PARAMS,
    )
  })

  it('normalises any valid number with random spaces and dashes to its digits', () => {
    fc.assert(
      fc.property(typedCard, ({ digits, input }) => {
        const card = normalizeCard(input)
        expect(card.number).toBe(digits)
        expect(card.expiryMonth).toMatch(/^(0[1-9]|1[0-2])$/)
        expect(card.expiryYear).toMatch(/^20[0-9]{2}$/)
      }),
      FC_PARAMS,
    )
  })

  it('never puts six digits of the card number in a thrown message', () => {
    const broken = fc.record({
      digits: validCardNumber,
      damage: fc.constantFrom('luhn', 'letter', 'long'),
      expiry: fc.constantFrom('03/30', '13/30', '10/26', '0', 'zz'),
      securityCode: fc.constantFrom('', '1', '12345', 'abc'),
      holderName: fc.constantFrom('', '4111111145551142', 'A B'),
    })
    fc.assert(
      fc.property(broken, ({ digits, damage, expiry, securityCode, holderName }) => {
        const number =
          damage === 'luhn'
            ? digits.slice(0, -1) + String((Number(digits.at(-1)) + 1) % 10)
            : damage === 'letter'
              ? `${digits}x`
              : `${digits}0000`
        const result = checkCard({ number, expiry, securityCode, holderName }, { now })
        if (result.ok) return
        const error = thrown(() => normalizeCard({ number, expiry, securityCode, holderName }, { now }))
        expect(error.message).toMatch(ISSUE_MESSAGE)
        expect(leaksCardDigits(error.message, digits)).toBe(false)
        expect(leaksCardDigits(JSON.stringify(error.issues), digits)).toBe(false)
      }),
      FC_PARAMS,
    )
  })
})

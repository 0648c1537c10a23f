import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { expiryVerdict, MAX_EXPIRY_YEARS_AHEAD } from 'card-jwe'
import { FC_PARAMS } from './support/cards.js'

// 21 November 2026: November 2026 cards are still good, October 2026 cards are not.
const now = () => new Date('2026-11-21T12:00:00Z')
const verdict = (value: Parameters<typeof expiryVerdict>[0]) => expiryVerdict(value, { now })

describe('expiryVerdict', () => {
  it.each(['3/30', '03 / 30', '03/2030', '0330', '3-30', '03.2030', ' 03/30 ', '032030', '330'])('reads "%s" as March 2030', (typed) => {
    expect(verdict(typed)).toEqual({ isValid: true, isPotentiallyValid: true, month: '03', year: '2030' })
  })

  it('reads separate month and year fields, numbers included', () => {
    expect(verdict({ month: '3', year: '30' })).toMatchObject({ isValid: true, month: '03', year: '2030' })
    expect(verdict({ month: 12, year: 2031 })).toMatchObject({ isValid: true, month: '12', year: '2031' })
  })

  it('accepts the current month and refuses the one before', () => {
    expect(verdict('11/26').isValid).toBe(true)
    expect(verdict('10/26')).toMatchObject({ isValid: false, isPotentiallyValid: false, rule: 'expired', field: 'expiry' })
    expect(verdict('12/2025')).toMatchObject({ isValid: false, rule: 'expired' })
  })

  it('keeps a card good until its month has ended in every time zone', () => {
    const at = (iso: string) => expiryVerdict('03/30', { now: () => new Date(iso) })
    // 1 April 05:00 UTC is still 31 March in the Americas: the shopper's card is good there.
    expect(at('2030-04-01T05:00:00Z')).toMatchObject({ isValid: true, month: '03', year: '2030' })
    expect(at('2030-04-01T11:59:59Z').isValid).toBe(true)
    // Midnight in UTC-12, the last zone: March is over everywhere.
    expect(at('2030-04-01T12:00:00Z')).toMatchObject({ isValid: false, rule: 'expired', field: 'expiry' })
    // The years ahead still count from the year as it is now.
    const newYear = () => new Date('2030-01-01T05:00:00Z')
    expect(expiryVerdict(`12/${2030 + MAX_EXPIRY_YEARS_AHEAD}`, { now: newYear }).isValid).toBe(true)
  })

  it(`refuses dates more than ${MAX_EXPIRY_YEARS_AHEAD} years ahead`, () => {
    expect(verdict(`12/${2026 + MAX_EXPIRY_YEARS_AHEAD}`).isValid).toBe(true)
    expect(verdict(`01/${2027 + MAX_EXPIRY_YEARS_AHEAD}`)).toMatchObject({
      isValid: false,
      isPotentiallyValid: false,
      rule: 'too-far-ahead',
    })
    expect(verdict('01/99')).toMatchObject({ isValid: false, rule: 'too-far-ahead' })
  })

  it('keeps input that is still being typed potentially valid', () => {
    for (const typing of ['', '0', '1', '03', '03/', '03/2', '03/20', '03/203', '13', '2']) {
      expect(verdict(typing), typing).toMatchObject({ isValid: false, isPotentiallyValid: true })
    }
  })

  it('refuses impossible months and stray characters', () => {
    expect(verdict('13/30')).toMatchObject({ isPotentiallyValid: false, rule: 'month' })
    expect(verdict('00/30')).toMatchObject({ isPotentiallyValid: false, rule: 'month' })
    expect(verdict('ab/30')).toMatchObject({ isPotentiallyValid: false, rule: 'characters' })
    expect(verdict({ month: '3', year: '2O30' })).toMatchObject({ isPotentiallyValid: false, rule: 'characters', field: 'expiryYear' })
    expect(verdict({ month: '13', year: '30' })).toMatchObject({ rule: 'month', field: 'expiryMonth' })
    expect(verdict('03/20300')).toMatchObject({ isPotentiallyValid: false })
  })

  it('names the separate field that is missing', () => {
    expect(verdict({ month: '', year: '30' })).toMatchObject({ rule: 'required', field: 'expiryMonth' })
    expect(verdict({ month: '03', year: '' })).toMatchObject({ rule: 'required', field: 'expiryYear' })
    expect(verdict({ month: '03', year: '203' })).toMatchObject({ rule: 'format', field: 'expiryYear' })
  })

  it('never throws, and never calls a value valid that is not potentially valid', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[0-9 /.-]{0,8}$/), fc.anything()), (value) => {
        const v = expiryVerdict(value as string, { now })
        expect(v.isValid && !v.isPotentiallyValid).toBe(false)
        if (v.isValid) expect(v.month).toMatch(/^(0[1-9]|1[0-2])$/)
      }),
      FC_PARAMS,
    )
  })

  it('agrees for every month and year whether typed as MM/YY or MM/YYYY', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 2000, max: 2099 }), (month, year) => {
        const mm = String(month).padStart(2, '0')
        const short = verdict(`${mm}/${String(year % 100).padStart(2, '0')}`)
        const long = verdict(`${mm}/${year}`)
        expect(short.isValid).toBe(long.isValid)
        const expected = (year > 2026 || (year === 2026 && month >= 11)) && year <= 2026 + MAX_EXPIRY_YEARS_AHEAD
        expect(long.isValid).toBe(expected)
      }),
      FC_PARAMS,
    )
  })
})

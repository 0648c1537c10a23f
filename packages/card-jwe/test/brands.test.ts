import { describe, expect, it } from 'vitest'
import { CARD_BRANDS, MAX_CARD_NUMBER_LENGTH, numberVerdict, securityCodeVerdict } from 'card-jwe'
import { TEST_CARDS } from '@card-jwe/testkit/test-cards'

describe('brand table', () => {
  it('is frozen all the way down', () => {
    expect(Object.isFrozen(CARD_BRANDS)).toBe(true)
    for (const brand of CARD_BRANDS) {
      expect(Object.isFrozen(brand), brand.type).toBe(true)
      expect(Object.isFrozen(brand.patterns)).toBe(true)
      expect(Object.isFrozen(brand.lengths)).toBe(true)
      expect(Object.isFrozen(brand.gaps)).toBe(true)
    }
    expect(() => (CARD_BRANDS as unknown as unknown[]).push({})).toThrow()
  })

  it('has well-formed patterns, lengths and gaps', () => {
    for (const brand of CARD_BRANDS) {
      for (const pattern of brand.patterns) {
        expect(pattern, brand.type).toMatch(/^[0-9]+(-[0-9]+)?$/)
        const [min, max] = pattern.split('-')
        if (max !== undefined) {
          expect(max.length, `${brand.type} ${pattern}`).toBe(min!.length)
          expect(Number(max)).toBeGreaterThan(Number(min))
        }
      }
      expect(Math.max(...brand.lengths)).toBeLessThanOrEqual(MAX_CARD_NUMBER_LENGTH)
      expect(brand.gaps.every((g, i) => g < Math.max(...brand.lengths) && (i === 0 || g > brand.gaps[i - 1]!))).toBe(true)
    }
  })

  it('gives American Express a four-digit code, Bancontact none, everyone else three', () => {
    const sizes = Object.fromEntries(CARD_BRANDS.map((b) => [b.type, b.code?.size ?? 0]))
    expect(sizes).toEqual({
      visa: 3,
      mastercard: 3,
      'american-express': 4,
      discover: 3,
      'diners-club': 3,
      jcb: 3,
      unionpay: 3,
      maestro: 3,
      bancontact: 0,
    })
  })
})

describe('test-card catalogue against the brand table', () => {
  it.each(TEST_CARDS.map((c) => [c.label, c] as const))('%s is a valid number of its brand with a matching code', (_, card) => {
    const verdict = numberVerdict(card.number)
    expect(verdict.isValid).toBe(true)
    expect(verdict.brand?.type).toBe(card.brand)
    expect(securityCodeVerdict(card.securityCode, verdict.brand).isValid).toBe(true)
  })

  it('covers every brand the issue names, with 3-D Secure cards', () => {
    const brands = new Set(TEST_CARDS.map((c) => c.brand))
    for (const b of ['visa', 'mastercard', 'american-express', 'discover', 'diners-club', 'jcb', 'unionpay', 'maestro'])
      expect(brands).toContain(b)
    expect(TEST_CARDS.some((c) => c.brand === 'mastercard' && c.number.startsWith('2'))).toBe(true)
    expect(TEST_CARDS.filter((c) => c.threeDSecure === 'challenge').length).toBeGreaterThanOrEqual(5)
  })
})

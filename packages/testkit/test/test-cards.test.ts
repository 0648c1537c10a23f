/**
 * The catalogue's expiry follows the clock: a fixed date would stop working on its own
 * (the documented 03/2030 in April 2030), so at any moment the cards must read as valid to card-jwe.
 */
import fc from 'fast-check'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { CARD_BRANDS, encryptCard, expiryVerdict, importCertificate } from 'card-jwe'
import { createCardDecryptor, createTestCertificate } from '@card-jwe/testkit'
import { findTestCard, TEST_CARDS, TEST_EXPIRY, testCardExpiry } from '@card-jwe/testkit/test-cards'

const YEAR_MS = 365.25 * 24 * 3_600_000

describe('test-card expiry', () => {
  it('is valid to card-jwe at any moment from 1990 to 2200, and at least three years ahead', () => {
    const moments = fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2200-12-31T23:59:59Z'), noInvalidDate: true })
    fc.assert(
      fc.property(moments, (at) => {
        const { month, year } = testCardExpiry(at)
        expect(expiryVerdict({ month, year }, { now: () => at })).toMatchObject({ isValid: true })
        // The card runs out at the end of its month: more than three years after `at`.
        expect(Date.UTC(Number(year), Number(month)) - at.getTime()).toBeGreaterThan(3 * YEAR_MS)
      }),
      { numRuns: 2000, seed: 20261121 },
    )
  })

  it('is the processor’s documented 03/2030 in 2026', () => {
    expect(testCardExpiry(new Date('2026-11-22T12:00:00Z'))).toEqual({ month: '03', year: '2030' })
  })

  it('is on every card of the catalogue, and follows a fixed clock when one is given', () => {
    expect(TEST_EXPIRY).toEqual(testCardExpiry())
    for (const card of TEST_CARDS) expect([card.expiryMonth, card.expiryYear]).toEqual([TEST_EXPIRY.month, TEST_EXPIRY.year])
    const at = new Date('2041-06-30T23:59:59Z')
    expect(findTestCard({ brand: 'visa' }, { now: () => at })).toMatchObject({ brand: 'visa', expiryMonth: '03', expiryYear: '2045' })
    expect(Object.isFrozen(findTestCard({ brand: 'visa' }, { now: () => at }))).toBe(true)
  })
})

describe('test-card security code', () => {
  // Enforced by the tests' type-check (tsc -p tsconfig.tests.json): a Visa's code needs no `!`.
  expectTypeOf(findTestCard({ brand: 'visa' }).securityCode).toEqualTypeOf<string>()

  it("is on every card: the brand's code, or '' for a brand without one", () => {
    for (const card of TEST_CARDS) {
      const spec = CARD_BRANDS.find((brand) => brand.type === card.brand)!.code
      expect(typeof card.securityCode, card.label).toBe('string')
      expect(card.securityCode.length, card.label).toBe(spec?.size ?? 0)
    }
  })

  it("of '' encrypts as no code: the payload carries no cvc", async () => {
    const { certificatePem, privateKeyPem } = await createTestCertificate()
    const bancontact = findTestCard({ brand: 'bancontact' })
    expect(bancontact.securityCode).toBe('')
    const jwe = await encryptCard(bancontact, await importCertificate(certificatePem))
    const { card } = await (await createCardDecryptor(privateKeyPem)).decrypt(jwe)
    expect(card).not.toHaveProperty('cvc')
    expect(card.number).toBe(bancontact.number)
  })
})

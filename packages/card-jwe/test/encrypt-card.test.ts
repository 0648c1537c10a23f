import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { CARD_JWE_HEADER, CardJweError, encryptCard, importCertificate, toPaymentMethod, type EncryptionCertificate } from 'card-jwe'
import { createCardDecryptor, decodeBase64url, encodeBase64url, SERVICE_MESSAGES, type CardDecryptor } from '@card-jwe/testkit/decryptor'
import { findTestCard, testCardExpiry } from '@card-jwe/testkit/test-cards'
import { certificates } from './support/certificates.js'
import { rejection } from './support/rejection.js'
import { FC_PARAMS, leaksCardDigits, typedCard } from './support/cards.js'

const visa = findTestCard({ brand: 'visa', threeDSecure: 'none' })
const amex = findTestCard({ brand: 'american-express', threeDSecure: 'none' })

let certificate: EncryptionCertificate
let decryptor: CardDecryptor

beforeAll(async () => {
  certificate = await importCertificate(certificates.valid.certificatePem)
  decryptor = await createCardDecryptor(certificates.valid.privateKeyPem)
})

describe('encryptCard', () => {
  it('writes exactly the service header, base64url without padding, in five segments', async () => {
    const jwe = await encryptCard(visa, certificate)
    const segments = jwe.split('.')
    expect(segments).toHaveLength(5)
    for (const segment of segments) expect(segment).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(new TextDecoder().decode(decodeBase64url(segments[0]!, 'header'))).toBe('{"alg":"RSA-OAEP-256","enc":"A256GCM","version":"1"}')
    expect(CARD_JWE_HEADER).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' })
    // RSA-2048 wraps the key into 256 bytes; A256GCM uses a 96-bit IV and a 128-bit tag.
    expect(decodeBase64url(segments[1]!, 'key')).toHaveLength(256)
    expect(decodeBase64url(segments[2]!, 'iv')).toHaveLength(12)
    expect(decodeBase64url(segments[4]!, 'tag')).toHaveLength(16)
  })

  it('encrypts the strict payload with generationtime from the clock', async () => {
    const at = new Date(Date.now() - 60 * 60 * 1000)
    const { year } = testCardExpiry(at)
    // Typed as a shopper would: unpadded month, two-digit year.
    const jwe = await encryptCard(
      { number: '3700 0000 0000 002', expiry: `3/${year.slice(2)}`, securityCode: '7373', holderName: 'A. Shopper' },
      certificate,
      { now: () => at },
    )
    const { header, card } = await decryptor.decrypt(jwe)
    expect(header).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' })
    expect(card).toEqual({
      number: amex.number,
      expiryMonth: '03',
      expiryYear: year,
      cvc: '7373',
      holderName: 'A. Shopper',
      generationtime: at.toISOString(),
    })
  })

  it('makes a different JWE every time (fresh content key and IV)', async () => {
    const a = await encryptCard(visa, certificate)
    const b = await encryptCard(visa, certificate)
    expect(a).not.toBe(b)
    expect(a.split('.')[2]).not.toBe(b.split('.')[2])
  })

  it('is read as stale by a service that receives it 25 hours later', async () => {
    const jwe = await encryptCard(visa, certificate)
    const later = await createCardDecryptor(certificates.valid.privateKeyPem, { now: () => new Date(Date.now() + 25 * 60 * 60 * 1000) })
    await expect(later.decrypt(jwe)).rejects.toThrow(SERVICE_MESSAGES.NO_LONGER_VALID)
  })

  it('cannot be opened with another environment’s key', async () => {
    const other = await createCardDecryptor(certificates.otherValid.privateKeyPem)
    await expect(other.decrypt(await encryptCard(visa, certificate))).rejects.toThrow(SERVICE_MESSAGES.UNDECRYPTABLE)
  })

  it('refuses an invalid card before encrypting, naming fields only', async () => {
    const error = await rejection(encryptCard({ ...visa, number: '4111111145551143' }, certificate))
    expect(error).toBeInstanceOf(CardJweError)
    expect((error as CardJweError).code).toBe('ERR_CARD_INVALID')
    expect(error.message).toBe('invalid card: number (luhn)')
  })

  it('refuses a certificate that expired after it was imported', async () => {
    const later = () => new Date(certificate.notAfter.getTime() + 1000)
    const error = await rejection(encryptCard(visa, certificate, { now: later }))
    expect((error as CardJweError).code).toBe('ERR_CERTIFICATE_EXPIRED')
  })

  it('refuses anything but an imported certificate', async () => {
    const error = await rejection(encryptCard(visa, { key: 'x' } as never))
    expect((error as CardJweError).code).toBe('ERR_INVALID_ARGUMENT')
  })

  it('round-trips every generated card', async () => {
    await fc.assert(
      fc.asyncProperty(typedCard, async ({ digits, input }) => {
        const { card } = await decryptor.decrypt(await encryptCard(input, certificate))
        expect(card.number).toBe(digits)
        expect(card.cvc).toBe(input.securityCode === '' ? undefined : input.securityCode)
        expect(Number(card.expiryMonth)).toBe(Number(input.expiryMonth))
        expect(card.expiryYear.endsWith(input.expiryYear)).toBe(true)
      }),
      { ...FC_PARAMS, numRuns: 40 },
    )
  })

  it('gives the one generic message when any byte of any segment changes', async () => {
    const jwe = await encryptCard(visa, certificate)
    const segments = jwe.split('.').map((s) => decodeBase64url(s, 'segment'))
    const change = fc
      .integer({ min: 0, max: 4 })
      .chain((segment) =>
        fc.tuple(fc.constant(segment), fc.integer({ min: 0, max: segments[segment]!.length - 1 }), fc.integer({ min: 1, max: 255 })),
      )
    await fc.assert(
      fc.asyncProperty(change, async ([segment, index, mask]) => {
        const bytes = segments.map((s) => s.slice())
        bytes[segment]![index]! ^= mask
        const error = await rejection(decryptor.decrypt(bytes.map(encodeBase64url).join('.')))
        expect(error.message).toBe(SERVICE_MESSAGES.UNDECRYPTABLE)
      }),
      FC_PARAMS,
    )
  })

  it('never puts card digits in an error', async () => {
    await fc.assert(
      fc.asyncProperty(typedCard, fc.constantFrom('luhn', 'securityCode', 'expiry'), async ({ digits, input }, damage) => {
        const broken =
          damage === 'luhn'
            ? { ...input, number: digits.slice(0, -1) + String((Number(digits.at(-1)) + 1) % 10) }
            : damage === 'securityCode'
              ? { ...input, securityCode: '12345' }
              : { ...input, expiryMonth: '13' }
        const error = await rejection(encryptCard(broken, certificate)).catch((e) => e as Error)
        if (!(error instanceof CardJweError)) return // the Luhn damage can hit a brand without Luhn
        expect(leaksCardDigits(`${error.message} ${JSON.stringify(error.issues)}`, digits)).toBe(false)
      }),
      { ...FC_PARAMS, numRuns: 40 },
    )
  })
})

describe('toPaymentMethod', () => {
  it('wraps a JWE as the spec’s card paymentMethod', () => {
    expect(toPaymentMethod('a.b.c.d.e')).toEqual({ type: 'scheme', jwe: 'a.b.c.d.e' })
  })
})

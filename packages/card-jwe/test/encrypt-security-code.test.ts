import { beforeAll, describe, expect, it } from 'vitest'
import {
  CARD_BRANDS,
  CardJweError,
  encryptSecurityCode,
  importCertificate,
  savedCardBrand,
  securityCodeVerdict,
  toSavedCardPaymentMethod,
  type EncryptionCertificate,
} from 'card-jwe'
import { createCardDecryptor, decodeBase64url, SERVICE_MESSAGES, type CardDecryptor } from '@card-jwe/testkit/decryptor'
import { certificates } from './support/certificates.js'
import { rejection } from './support/rejection.js'

let certificate: EncryptionCertificate
let decryptor: CardDecryptor

beforeAll(async () => {
  certificate = await importCertificate(certificates.valid.certificatePem)
  decryptor = await createCardDecryptor(certificates.valid.privateKeyPem)
})

describe('encryptSecurityCode', () => {
  it('writes the card JWE header and a payload of only cvc and generationtime', async () => {
    const at = new Date(Date.now() - 60_000)
    const jwe = await encryptSecurityCode({ securityCode: ' 737 ', brand: 'visa' }, certificate, { now: () => at })
    const segments = jwe.split('.')
    expect(segments).toHaveLength(5)
    expect(new TextDecoder().decode(decodeBase64url(segments[0]!, 'header'))).toBe('{"alg":"RSA-OAEP-256","enc":"A256GCM","version":"1"}')
    const { plaintext } = await decryptor.open(jwe)
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual({ cvc: '737', generationtime: at.toISOString() })
    const { securityCode } = await decryptor.decryptSecurityCode(jwe, { codeSize: 3 })
    expect(securityCode).toEqual({ cvc: '737', generationtime: at.toISOString() })
  })

  it('takes four digits for American Express by the service name or by card-jwe’s', async () => {
    for (const brand of ['amex', 'american-express', savedCardBrand('amex')]) {
      const jwe = await encryptSecurityCode({ securityCode: '7373', brand }, certificate)
      expect((await decryptor.decryptSecurityCode(jwe, { codeSize: 4 })).securityCode.cvc).toBe('7373')
      const short = await rejection<CardJweError>(encryptSecurityCode({ securityCode: '737', brand }, certificate))
      expect(short).toMatchObject({ code: 'ERR_CARD_INVALID', issues: [{ field: 'securityCode', rule: 'length' }] })
    }
  })

  it('blames the code field by rule when it does not fit the brand, and never quotes the code', async () => {
    const cases: Array<[string, string, string]> = [
      ['7373', 'visa', 'length'],
      ['', 'mc', 'required'],
      ['7a7', 'visa', 'characters'],
      ['73', 'discover', 'length'],
    ]
    for (const [securityCode, brand, rule] of cases) {
      const error = await rejection<CardJweError>(encryptSecurityCode({ securityCode, brand }, certificate))
      expect(error).toBeInstanceOf(CardJweError)
      expect(error).toMatchObject({ code: 'ERR_CARD_INVALID', issues: [{ field: 'securityCode', rule }] })
      if (securityCode) expect(error.message).not.toContain(securityCode)
    }
  })

  it('takes three or four digits for a brand it does not know', async () => {
    for (const securityCode of ['737', '7373']) {
      const jwe = await encryptSecurityCode({ securityCode, brand: 'some-new-scheme' }, certificate)
      expect((await decryptor.decryptSecurityCode(jwe)).securityCode.cvc).toBe(securityCode)
    }
    expect(await rejection<CardJweError>(encryptSecurityCode({ securityCode: '73737', brand: null }, certificate))).toMatchObject({
      code: 'ERR_CARD_INVALID',
    })
  })

  it('refuses to encrypt a code for a brand whose cards carry none', async () => {
    for (const brand of ['bcmc', 'bancontact']) {
      const error = await rejection<CardJweError>(encryptSecurityCode({ securityCode: '', brand }, certificate))
      expect(error).toMatchObject({ code: 'ERR_INVALID_ARGUMENT' })
      expect(error.message).toMatch(/^brand: /)
    }
  })

  it('is refused as stale by a service that receives it 25 hours later', async () => {
    const jwe = await encryptSecurityCode({ securityCode: '737', brand: 'visa' }, certificate)
    const later = await createCardDecryptor(certificates.valid.privateKeyPem, { now: () => new Date(Date.now() + 25 * 3600_000) })
    await expect(later.decryptSecurityCode(jwe)).rejects.toMatchObject({ message: SERVICE_MESSAGES.NO_LONGER_VALID })
  })

  it('refuses anything but an imported certificate', async () => {
    const error = await rejection<CardJweError>(encryptSecurityCode({ securityCode: '737', brand: 'visa' }, {} as EncryptionCertificate))
    expect(error).toMatchObject({ code: 'ERR_INVALID_ARGUMENT' })
  })

  it('makes a JWE the whole-card decryption refuses: a code alone is no card', async () => {
    const jwe = await encryptSecurityCode({ securityCode: '737', brand: 'visa' }, certificate)
    await expect(decryptor.decrypt(jwe)).rejects.toMatchObject({ message: SERVICE_MESSAGES.INVALID_CARD_DETAILS })
  })
})

describe('savedCardBrand', () => {
  it('maps the service’s short names and card-jwe’s own to the brand table', () => {
    expect(savedCardBrand('amex')?.code).toEqual({ name: 'CID', size: 4 })
    expect(savedCardBrand('mc')?.type).toBe('mastercard')
    expect(savedCardBrand('bcmc')?.code).toBeNull()
    expect(savedCardBrand('cup')?.type).toBe('unionpay')
    expect(savedCardBrand('diners')?.type).toBe('diners-club')
    for (const brand of CARD_BRANDS) expect(savedCardBrand(brand.type)).toBe(brand)
    expect(savedCardBrand('toString')).toBeNull()
    expect(savedCardBrand(undefined as unknown as string)).toBeNull()
  })

  it('gives the saved card’s code its verdict: four digits for American Express, none for Bancontact', () => {
    expect(securityCodeVerdict('7373', savedCardBrand('amex')).isValid).toBe(true)
    expect(securityCodeVerdict('737', savedCardBrand('amex'))).toMatchObject({ isValid: false, isPotentiallyValid: true, rule: 'length' })
    expect(securityCodeVerdict('7373', savedCardBrand('visa'))).toMatchObject({ isValid: false, isPotentiallyValid: false })
    expect(securityCodeVerdict('', savedCardBrand('bcmc')).isValid).toBe(true)
  })
})

describe('toSavedCardPaymentMethod', () => {
  it('names the saved card by id, with the code JWE only when there is one', () => {
    expect(toSavedCardPaymentMethod('pm_1', 'a.b.c.d.e')).toEqual({ type: 'scheme', storedPaymentMethodId: 'pm_1', jwe: 'a.b.c.d.e' })
    expect(toSavedCardPaymentMethod('pm_1')).toEqual({ type: 'scheme', storedPaymentMethodId: 'pm_1' })
  })
})

import { describe, expect, it } from 'vitest'
import { CardJweError, importCertificate } from 'card-jwe'
import { certificates } from './support/certificates.js'

const { valid, otherValid, expired, notYetValid, ecKey, rsa1024 } = certificates

function base64Body(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '')
}

function derOf(pem: string): Uint8Array {
  return Uint8Array.from(atob(base64Body(pem)), (c) => c.charCodeAt(0))
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(CardJweError)
    return (error as CardJweError).code
  }
  throw new Error('expected a rejection')
}

describe('importCertificate', () => {
  it('reads PEM, DER, bare base64 and PEM bytes alike', async () => {
    const forms = [
      valid.certificatePem,
      derOf(valid.certificatePem),
      derOf(valid.certificatePem).buffer,
      base64Body(valid.certificatePem),
      new TextEncoder().encode(valid.certificatePem),
    ]
    for (const form of forms) {
      const certificate = await importCertificate(form as string)
      expect(certificate.fingerprint).toBe(valid.fingerprint)
      expect(certificate.keyBits).toBe(2048)
      expect(certificate.key.algorithm).toMatchObject({ name: 'RSA-OAEP', hash: { name: 'SHA-256' } })
      expect(certificate.key.usages).toEqual(['encrypt'])
      expect(certificate.notBefore.getTime()).toBe(new Date(valid.notBefore).getTime())
      expect(certificate.notAfter.getTime()).toBe(new Date(valid.notAfter).getTime())
      expect(Object.isFrozen(certificate)).toBe(true)
    }
  })

  it('accepts the pinned fingerprint in any spelling and refuses another certificate', async () => {
    const bare = valid.fingerprint.replace(/:/g, '')
    for (const pin of [valid.fingerprint, valid.fingerprint.toLowerCase(), bare, bare.toLowerCase()]) {
      await expect(importCertificate(valid.certificatePem, { fingerprint: pin })).resolves.toBeDefined()
    }
    expect(await codeOf(importCertificate(otherValid.certificatePem, { fingerprint: valid.fingerprint }))).toBe(
      'ERR_CERTIFICATE_FINGERPRINT',
    )
    expect(await codeOf(importCertificate(valid.certificatePem, { fingerprint: 'abc' }))).toBe('ERR_INVALID_ARGUMENT')
  })

  it('gives each kind of bad certificate its own code', async () => {
    expect(await codeOf(importCertificate(expired.certificatePem))).toBe('ERR_CERTIFICATE_EXPIRED')
    expect(await codeOf(importCertificate(notYetValid.certificatePem))).toBe('ERR_CERTIFICATE_NOT_YET_VALID')
    expect(await codeOf(importCertificate(ecKey.certificatePem))).toBe('ERR_CERTIFICATE_KEY_TYPE')
    expect(await codeOf(importCertificate(rsa1024.certificatePem))).toBe('ERR_CERTIFICATE_KEY_SIZE')
  })

  it('checks validity against the injected clock', async () => {
    const after = () => new Date(new Date(valid.notAfter).getTime() + 1000)
    expect(await codeOf(importCertificate(valid.certificatePem, { now: after }))).toBe('ERR_CERTIFICATE_EXPIRED')
    expect(await codeOf(importCertificate(valid.certificatePem, { now: () => new Date('invalid') }))).toBe('ERR_INVALID_ARGUMENT')
  })

  it('refuses what is not a certificate', async () => {
    const der = derOf(valid.certificatePem)
    const notCertificates: unknown[] = [
      '',
      'not base64 at all!',
      '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----',
      '-----BEGIN CERTIFICATE-----\nMIIB',
      der.subarray(0, der.length - 1),
      Uint8Array.from([...der, 0]),
      Uint8Array.from([0x30, 0x80, 0, 0]),
      new Uint8Array(0),
    ]
    for (const input of notCertificates) {
      expect(await codeOf(importCertificate(input as string)), String(input).slice(0, 30)).toBe('ERR_CERTIFICATE_MALFORMED')
    }
    expect(await codeOf(importCertificate(42 as never))).toBe('ERR_INVALID_ARGUMENT')
  })

  it('refuses every truncation of a real certificate', async () => {
    const der = derOf(valid.certificatePem)
    for (let length = 0; length < der.length; length += 37) {
      expect(await codeOf(importCertificate(der.slice(0, length)))).toBe('ERR_CERTIFICATE_MALFORMED')
    }
  })
})

import { createTestCertificate, type TestCertificate } from '@card-jwe/testkit'
import { beforeAll, describe, expect, it } from 'vitest'
import { connectServiceClient, createShopBackend, generateSecretKey, type ShopBackendOptions } from '../src/index.js'
import { openSqliteStore } from '../src/sqlite/index.js'

let certificate: TestCertificate
beforeAll(async () => {
  certificate = await createTestCertificate()
})

const optionsWith = (changes: Partial<Record<keyof ShopBackendOptions, unknown>>): ShopBackendOptions =>
  ({
    store: openSqliteStore({ path: ':memory:' }),
    ...connectServiceClient({ baseUrl: 'http://127.0.0.1:9' }),
    secretKey: generateSecretKey(),
    findOrder: () => undefined,
    onOrderChange: () => {},
    shopUrl: 'http://127.0.0.1:9',
    ...changes,
  }) as ShopBackendOptions

/** What createShopBackend throws for these options, checked to be a TypeError. */
function refusal(changes: Partial<Record<keyof ShopBackendOptions, unknown>>): string {
  try {
    createShopBackend(optionsWith(changes))
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError)
    return (error as TypeError).message
  }
  throw new Error('created')
}

describe('createShopBackend refuses options a shop got wrong, at start, naming the option and never its value', () => {
  it('serves a certificate only when certificatePem is one: a private key is refused before any page could get it', async () => {
    const key = refusal({ certificatePem: certificate.privateKeyPem })
    expect(key).toBe("certificatePem: a private key, not a certificate: give the processor's certificate, and serve no key")
    const body = certificate.privateKeyPem.split('\n')[1]!
    expect(key).not.toContain(body.slice(0, 16))
    // Both in one file, as a key and certificate bundle: still the key.
    expect(refusal({ certificatePem: certificate.certificatePem + certificate.privateKeyPem })).toMatch(/^certificatePem: a private key/)
    expect(refusal({ certificatePem: './.sandbox-data/certificate.pem' })).toBe(
      'certificatePem: not a PEM certificate (-----BEGIN CERTIFICATE-----): the text of the certificate file, not its path',
    )
    expect(refusal({ certificatePem: certificate.certificatePem.replace(/CERTIFICATE/g, 'PUBLIC KEY') })).toBe(
      'certificatePem: a PEM PUBLIC KEY, not a CERTIFICATE',
    )
    expect(refusal({ certificatePem: '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n' })).toBe(
      'certificatePem: a CERTIFICATE block that is not an X.509 certificate (base64 of DER)',
    )
    const another = await createTestCertificate()
    expect(refusal({ certificatePem: certificate.certificatePem + another.certificatePem })).toBe(
      "certificatePem: one certificate: the processor's, alone",
    )
    // The processor's certificate itself, and none at all (the checkout then stays closed), start.
    expect(() => createShopBackend(optionsWith({ certificatePem: certificate.certificatePem }))).not.toThrow()
    expect(() => createShopBackend(optionsWith({ certificatePem: undefined }))).not.toThrow()
  })

  it('refuses a secretKey of another length than 32 bytes when created, not at connect', () => {
    expect(refusal({ secretKey: new Uint8Array(5) })).toBe('secretKey: 32 bytes (AES-256)')
  })

  it('refuses paths the back end does not serve, and paths not from the root, by name', () => {
    expect(refusal({ paths: { pay: '/checkout/pay' } })).toBe(
      'paths.pay: not a path the back end serves (config, payments, paymentDetails)',
    )
    expect(refusal({ paths: { payments: 'checkout/pay' } })).toBe(
      "paths.payments: a path from the root, as '/api/payments' (no spaces, query or fragment)",
    )
    expect(refusal({ healthPaths: { ready: 'readyz' } })).toMatch(/^healthPaths\.ready: /)
    expect(() => createShopBackend(optionsWith({ paths: { payments: '/checkout/pay' } }))).not.toThrow()
  })
})

import { createTestCertificate, type TestCertificate } from '@card-jwe/testkit'
import { beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient, type ServiceClient } from '@card-jwe/service-client'
import {
  connectServiceClient,
  createShopBackend,
  generateSecretKey,
  paymentServiceFromClient,
  type ShopBackendOptions,
} from '../src/index.js'
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
      'certificatePem: a PEM block of another kind than CERTIFICATE',
    )
    expect(refusal({ certificatePem: '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n' })).toBe(
      'certificatePem: not an X.509 certificate (base64 of DER)',
    )
    const another = await createTestCertificate()
    expect(refusal({ certificatePem: certificate.certificatePem + another.certificatePem })).toBe(
      "certificatePem: one certificate: the processor's, alone",
    )
    // The processor's certificate itself, and none at all (the checkout then stays closed), start.
    expect(() => createShopBackend(optionsWith({ certificatePem: certificate.certificatePem }))).not.toThrow()
    expect(() => createShopBackend(optionsWith({ certificatePem: undefined }))).not.toThrow()
  })

  it('serves the certificate alone as plain PEM: text around it left out, a bare base64 body wrapped', async () => {
    const served = async (certificatePem: string) => {
      const backend = createShopBackend(optionsWith({ certificatePem }))
      return ((await (await backend.fetch(new Request('http://shop.test/api/config'))).json()) as { certificatePem?: string })
        .certificatePem
    }
    const body = certificate.certificatePem.split('\n').filter((line) => line !== '' && !line.startsWith('-----'))
    // As openssl x509 -text and a PKCS#12 export write it, with Windows line ends.
    const windows = certificate.certificatePem.replace(/\n/g, '\r\n')
    const annotated = `Bag Attributes\r\n    localKeyID: 01 00\r\nsubject=/CN=processor\r\n${windows}`
    expect(await served(annotated)).toBe(certificate.certificatePem)
    expect(await served(body.join(''))).toBe(certificate.certificatePem)
    expect(await served(certificate.certificatePem)).toBe(certificate.certificatePem)
  })

  it('refuses a secretKey, or an earlier one, of another length than 32 bytes when created, not at connect', () => {
    const rule = '32 bytes (AES-256) in a Uint8Array, or an AES-GCM CryptoKey'
    expect(refusal({ secretKey: new Uint8Array(5) })).toBe(`secretKey: ${rule}`)
    expect(refusal({ secretKey: new DataView(new ArrayBuffer(32)) })).toBe(`secretKey: ${rule}`)
    expect(refusal({ previousSecretKeys: [generateSecretKey(), new Uint8Array(16)] })).toBe(`previousSecretKeys.1: ${rule}`)
  })

  it('refuses the promise of a store (openPostgresStore without await), and anything that is not one, at start', async () => {
    const pending = Promise.resolve(openSqliteStore({ path: ':memory:' }))
    expect(refusal({ store: pending })).toBe('store: a Promise, not a ledger store: await openPostgresStore(...) before createShopBackend')
    expect(refusal({ store: {} })).toBe('store: not a ledger store (openSqliteStore, openPostgresStore, or your own LedgerStore)')
    expect(refusal({ store: undefined })).toMatch(/^store: not a ledger store/)
    expect(() => createShopBackend(optionsWith({}))).not.toThrow()
  })

  it('refuses paths the back end does not serve, and paths not from the root, by name', () => {
    expect(refusal({ paths: { pay: '/checkout/pay' } })).toBe(
      'paths.pay: not a path the back end serves (config, payments, paymentDetails)',
    )
    expect(refusal({ paths: { payments: 'checkout/pay' } })).toBe(
      "paths.payments: a path from the root, as '/api/payments' (no spaces, query or fragment)",
    )
    expect(refusal({ healthPaths: { ready: 'readyz' } })).toMatch(/^healthPaths\.ready: /)
    // A name every object has is no path of the back end's either.
    expect(refusal({ paths: JSON.parse('{"constructor": "/x"}') })).toMatch(/^paths\.constructor: not a path the back end serves/)
    expect(() => createShopBackend(optionsWith({ paths: { payments: '/checkout/pay' } }))).not.toThrow()
  })

  it('refuses a service deadline a step claim could outlive (over 30 s), naming deadlineMs; 30 s itself is taken', () => {
    const deadline = (deadlineMs: number) => () => connectServiceClient({ baseUrl: 'http://127.0.0.1:9', deadlineMs })
    expect(deadline(30_001)).toThrow(TypeError)
    expect(deadline(120_000)).toThrow(
      "deadlineMs: at most 30000 ms, so a call ends long before another instance may take its order's step as abandoned",
    )
    expect(deadline(30_000)).not.toThrow()
    expect(() => connectServiceClient({ baseUrl: 'http://127.0.0.1:9' })).not.toThrow()
  })

  it("refuses a client of the shop's own whose deadline a step claim could outlive, as connectServiceClient does", () => {
    const credentials = { shopId: 'shop-1', serviceSecret: 'x'.repeat(32) }
    const adapted = (deadlineMs?: number) => () =>
      paymentServiceFromClient(createServiceClient({ baseUrl: 'http://127.0.0.1:9', credentials, ...(deadlineMs ? { deadlineMs } : {}) }))
    expect(adapted(60_000)).toThrow(
      "deadlineMs: at most 30000 ms, so a call ends long before another instance may take its order's step as abandoned",
    )
    expect(adapted(30_000)).not.toThrow()
    expect(adapted()).not.toThrow()
    // A client that does not say its deadline (another copy of the client, an older one) could have any.
    const { deadlineMs: _, ...silent } = createServiceClient({ baseUrl: 'http://127.0.0.1:9', credentials })
    expect(() => paymentServiceFromClient(silent as ServiceClient)).toThrow(
      'client.deadlineMs: a number; the client must say its deadline (a client of this release of @card-jwe/service-client)',
    )
  })
})

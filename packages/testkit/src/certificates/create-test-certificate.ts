import { fingerprintOf, x509 } from './x509.js'

/** Options of {@link createTestCertificate}. */
export interface TestCertificateOptions {
  /** The moment validity is counted from. Default: the wall clock. A test that fixes its clock passes it here. */
  readonly now?: Date
  /** Validity in days from now. Default 365. */
  readonly days?: number
  /** Start of validity. Default: one day ago, so clocks that run behind (and tests that set one back) see it valid. */
  readonly notBefore?: Date
  /** End of validity; overrides `days`. */
  readonly notAfter?: Date
  /** `rsa` (default) or `ec` (P-256), the latter to test refusal of non-RSA keys. */
  readonly keyType?: 'rsa' | 'ec'
  /** RSA modulus size. Default 2048. */
  readonly keyBits?: number
  /** Distinguished name of subject and issuer. */
  readonly subject?: string
}

/** A self-signed test certificate with its private key. */
export interface TestCertificate {
  /** Self-signed X.509 certificate, PEM. */
  readonly certificatePem: string
  /** Its private key, PKCS#8 PEM. Never commit or ship it. */
  readonly privateKeyPem: string
  /** SHA-256 fingerprint, "AB:CD:...". */
  readonly fingerprint: string
  /** Start of validity. */
  readonly notBefore: Date
  /** End of validity. */
  readonly notAfter: Date
}

const DAY_MS = 24 * 60 * 60 * 1000

function randomSerial(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[0]! &= 0x7f // RFC 5280 4.1.2.2: the serial is a positive integer.
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** A fresh key pair and a self-signed certificate standing in for the processor's. */
export async function createTestCertificate(options: TestCertificateOptions = {}): Promise<TestCertificate> {
  const now = (options.now ?? new Date()).getTime()
  const notBefore = options.notBefore ?? new Date(now - DAY_MS)
  const notAfter = options.notAfter ?? new Date(now + (options.days ?? 365) * DAY_MS)
  const algorithm =
    options.keyType === 'ec'
      ? { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' }
      : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: options.keyBits ?? 2048 }
  const keys = (await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: options.subject ?? 'CN=card-jwe test certificate, O=card-jwe testkit',
    notBefore,
    notAfter,
    signingAlgorithm: algorithm,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      // The processor's certificate exists to wrap content keys.
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyEncipherment, true),
    ],
  })
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', keys.privateKey)
  return {
    certificatePem: `${certificate.toString('pem')}\n`,
    privateKeyPem: `${x509.PemConverter.encode(pkcs8, 'PRIVATE KEY')}\n`,
    fingerprint: await fingerprintOf(certificate),
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
  }
}

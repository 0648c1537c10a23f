import { createTestCertificate, type TestCertificate } from './create-test-certificate.js'

/** Public halves only: for tests that expect a certificate to be refused. */
export type PublicCertificate = Pick<TestCertificate, 'certificatePem' | 'fingerprint'>

/** Everything a card-jwe test run needs: a good certificate with its key, and each kind of bad one. */
export interface TestCertificateSet {
  /** A good certificate, with its key: encrypt with it, decrypt with the key. */
  readonly valid: TestCertificate
  /** A second good certificate: encrypting with it stands for a live/test mix-up. */
  readonly otherValid: TestCertificate
  /** Its validity ended yesterday. */
  readonly expired: PublicCertificate
  /** Its validity starts tomorrow. */
  readonly notYetValid: PublicCertificate
  /** A P-256 key: card-jwe accepts only RSA. */
  readonly ecKey: PublicCertificate
  /** An RSA key of 1024 bits, under RFC 7518's 2048. */
  readonly rsa1024: PublicCertificate
}

const DAY_MS = 24 * 60 * 60 * 1000

function publicHalf(c: TestCertificate): PublicCertificate {
  return { certificatePem: c.certificatePem, fingerprint: c.fingerprint }
}

/** `now`: the moment every validity is counted from (default: the wall clock). */
export async function createTestCertificateSet(options: { readonly now?: Date } = {}): Promise<TestCertificateSet> {
  const at = options.now ?? new Date()
  const now = at.getTime()
  const [valid, otherValid, expired, notYetValid, ecKey, rsa1024] = await Promise.all([
    createTestCertificate({ now: at }),
    createTestCertificate({ now: at, subject: 'CN=card-jwe other environment' }),
    createTestCertificate({ notBefore: new Date(now - 30 * DAY_MS), notAfter: new Date(now - DAY_MS) }),
    createTestCertificate({ now: at, notBefore: new Date(now + DAY_MS), days: 30 }),
    createTestCertificate({ now: at, keyType: 'ec' }),
    createTestCertificate({ now: at, keyBits: 1024 }),
  ])
  return {
    valid,
    otherValid,
    expired: publicHalf(expired),
    notYetValid: publicHalf(notYetValid),
    ecKey: publicHalf(ecKey),
    rsa1024: publicHalf(rsa1024),
  }
}

import { fingerprintOf, x509 } from './x509.js'

export interface CertificateSummary {
  readonly subject: string
  readonly issuer: string
  readonly notBefore: string
  readonly notAfter: string
  /** "RSA" for any rsaEncryption key, else the algorithm as WebCrypto names it ("ECDSA", ...). */
  readonly keyAlgorithm: string
  /** RSA modulus bits; null for other keys. */
  readonly keyBits: number | null
  readonly fingerprint: string
}

/** What a person checks before using a certificate, whatever its state (expired ones included). */
export async function inspectCertificate(input: string | Uint8Array): Promise<CertificateSummary> {
  const certificate = new x509.X509Certificate(typeof input === 'string' ? input : new Uint8Array(input))
  const algorithm = certificate.publicKey.algorithm as Algorithm & { modulusLength?: number }
  return {
    subject: certificate.subject,
    issuer: certificate.issuer,
    notBefore: certificate.notBefore.toISOString(),
    notAfter: certificate.notAfter.toISOString(),
    // x509 maps rsaEncryption to a signature algorithm name; the key itself is just RSA.
    keyAlgorithm: algorithm.modulusLength === undefined ? algorithm.name : 'RSA',
    keyBits: algorithm.modulusLength ?? null,
    fingerprint: await fingerprintOf(certificate),
  }
}

import { fingerprintOf, x509 } from './x509.js'

/** What {@link inspectCertificate} reports, as the `card-jwe inspect` command prints it. */
export interface CertificateSummary {
  /** Subject distinguished name, RFC 4514 text. */
  readonly subject: string
  /** Issuer distinguished name; equal to the subject for a self-signed certificate. */
  readonly issuer: string
  /** Start of validity, ISO 8601 UTC. */
  readonly notBefore: string
  /** End of validity, ISO 8601 UTC. */
  readonly notAfter: string
  /** "RSA" for any rsaEncryption key, else the algorithm as WebCrypto names it ("ECDSA", ...). */
  readonly keyAlgorithm: string
  /** RSA modulus bits; null for other keys. */
  readonly keyBits: number | null
  /** SHA-256 over the DER, "AB:CD:..." as openssl prints it. */
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

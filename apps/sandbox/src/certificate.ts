import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createTestCertificate, inspectCertificate } from '@card-jwe/testkit'

export interface SandboxCertificate {
  readonly certificatePath: string
  readonly certificatePem: string
  /** The key's file, beside the certificate (mode 0600). */
  readonly privateKeyPath: string
  readonly privateKeyPem: string
  readonly fingerprint: string
}

/** A certificate is renewed when less than this is left of it. */
const RENEW_BEFORE_MS = 24 * 60 * 60 * 1000

/**
 * The sandbox's test certificate and key in its data folder: reused while valid at `now`, made
 * (valid from `now`, the sandbox's own clock) when missing, running out, or not yet valid.
 */
export async function loadOrCreateCertificate(dataDir: string, now: Date): Promise<SandboxCertificate> {
  const certificatePath = join(dataDir, 'certificate.pem')
  const keyPath = join(dataDir, 'private-key.pem')
  if (existsSync(certificatePath) && existsSync(keyPath)) {
    const certificatePem = await readFile(certificatePath, 'utf8')
    const summary = await inspectCertificate(certificatePem)
    const validNow = Date.parse(summary.notBefore) <= now.getTime() && Date.parse(summary.notAfter) - now.getTime() > RENEW_BEFORE_MS
    if (validNow) {
      return {
        certificatePath,
        certificatePem,
        privateKeyPath: keyPath,
        privateKeyPem: await readFile(keyPath, 'utf8'),
        fingerprint: summary.fingerprint,
      }
    }
  }
  const made = await createTestCertificate({ now, days: 365, subject: 'CN=card-jwe sandbox (test only), O=card-jwe' })
  await writeFile(keyPath, made.privateKeyPem, { mode: 0o600 })
  await writeFile(certificatePath, made.certificatePem)
  return {
    certificatePath,
    certificatePem: made.certificatePem,
    privateKeyPath: keyPath,
    privateKeyPem: made.privateKeyPem,
    fingerprint: made.fingerprint,
  }
}

import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createTestCertificate } from '../../certificates/create-test-certificate.js'
import { CliError, type Io } from '../io.js'

export const CERT_USAGE = 'card-jwe cert --out DIR [--days N]   write DIR/certificate.pem and DIR/private-key.pem'

export async function certCommand(values: { out?: string; days?: string }, io: Io): Promise<void> {
  if (!values.out) throw new CliError('--out DIR is required', 2)
  const days = values.days === undefined ? 365 : Number(values.days)
  if (!Number.isInteger(days) || days < 1 || days > 36500) throw new CliError('--days must be a whole number from 1 to 36500', 2)
  const certificate = await createTestCertificate({ days })
  await mkdir(values.out, { recursive: true })
  const certificatePath = join(values.out, 'certificate.pem')
  const keyPath = join(values.out, 'private-key.pem')
  await writeFile(certificatePath, certificate.certificatePem)
  // The private key is for test decryption only; keep it readable by its owner alone.
  await writeFile(keyPath, certificate.privateKeyPem, { mode: 0o600 })
  io.stdout.write(`${certificatePath}\n${keyPath}\nSHA-256 ${certificate.fingerprint}\n`)
}

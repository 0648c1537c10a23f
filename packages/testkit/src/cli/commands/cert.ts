import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createTestCertificate } from '../../certificates/create-test-certificate.js'
import { CliError, type Io } from '../io.js'

export const CERT_USAGE =
  'card-jwe cert --out DIR [--days N] [--force]   write DIR/certificate.pem and DIR/private-key.pem (--force replaces them)'

export async function certCommand(values: { out?: string; days?: string; force?: boolean }, io: Io): Promise<void> {
  if (!values.out) throw new CliError('--out DIR is required', 2)
  const days = values.days === undefined ? 365 : Number(values.days)
  if (!Number.isInteger(days) || days < 1 || days > 36500) throw new CliError('--days must be a whole number from 1 to 36500', 2)
  const certificatePath = join(values.out, 'certificate.pem')
  const keyPath = join(values.out, 'private-key.pem')
  // A key other tests or a sandbox still decrypt with is not replaced by accident; checked before writing either file.
  const existing = [certificatePath, keyPath].filter((path) => existsSync(path))
  if (existing.length > 0 && !values.force)
    throw new CliError(`${existing.join(' and ')} already exist${existing.length === 1 ? 's' : ''}; pass --force to replace`)
  const certificate = await createTestCertificate({ days })
  await mkdir(values.out, { recursive: true })
  // 'wx' unless forced: a file that appeared meanwhile is still not overwritten.
  const flag = values.force ? 'w' : 'wx'
  await writeFile(certificatePath, certificate.certificatePem, { flag })
  // The private key is for test decryption only; keep it readable by its owner alone.
  await writeFile(keyPath, certificate.privateKeyPem, { mode: 0o600, flag })
  io.stdout.write(`${certificatePath}\n${keyPath}\nSHA-256 ${certificate.fingerprint}\n`)
}

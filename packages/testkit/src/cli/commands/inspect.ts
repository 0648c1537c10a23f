import { inspectCertificate } from '../../certificates/inspect-certificate.js'
import { CliError, readInputFile, type Io } from '../io.js'

export const INSPECT_USAGE = 'card-jwe inspect --cert FILE   subject, issuer, validity, key bits, SHA-256 fingerprint as JSON'

export async function inspectCommand(values: { cert?: string }, io: Io): Promise<void> {
  const bytes = await readInputFile('--cert', values.cert)
  const text = bytes.toString('utf8')
  let summary
  try {
    summary = await inspectCertificate(text.includes('-----BEGIN') ? text : new Uint8Array(bytes))
  } catch {
    throw new CliError(`--cert ${values.cert}: not an X.509 certificate (PEM or DER)`)
  }
  io.stdout.write(`${JSON.stringify(summary, null, 2)}\n`)
}

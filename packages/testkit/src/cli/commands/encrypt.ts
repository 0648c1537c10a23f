import { CardJweError, encryptCard, importCertificate, type CardInput } from 'card-jwe'
import { CliError, readInputFile, readStdin, type Io } from '../io.js'

export const ENCRYPT_USAGE = 'card-jwe encrypt --cert FILE [--fingerprint HEX]   card JSON on stdin, compact JWE on stdout'

function parseCard(text: string): CardInput {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    // JSON.parse's own message quotes the input, which would be card data.
    throw new CliError('stdin: not valid JSON (expected {"number", "expiryMonth", "expiryYear", "securityCode"})')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CliError('stdin: expected a JSON object')
  if (typeof (value as { number?: unknown }).number === 'number') {
    throw new CliError('number: must be a JSON string (a JSON number loses digits)')
  }
  return value as CardInput
}

export async function encryptCommand(values: { cert?: string; fingerprint?: string }, io: Io): Promise<void> {
  const certificateBytes = await readInputFile('--cert', values.cert)
  const card = parseCard(await readStdin(io.stdin))
  try {
    const certificate = await importCertificate(
      new Uint8Array(certificateBytes),
      values.fingerprint === undefined ? {} : { fingerprint: values.fingerprint },
    )
    io.stdout.write(`${await encryptCard(card, certificate)}\n`)
  } catch (error) {
    if (error instanceof CardJweError) throw new CliError(`${error.message} [${error.code}]`)
    throw error
  }
}

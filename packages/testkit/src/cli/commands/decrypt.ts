import { createCardDecryptor, DecryptionError } from '../../decryptor/index.js'
import { CliError, readInputFile, readStdin, type Io } from '../io.js'

export const DECRYPT_USAGE =
  'card-jwe decrypt --key FILE [--max-age SECONDS] [--code-only] [--explain]   JWE on stdin, payload JSON on stdout' +
  " (--code-only: a saved card's security-code JWE, {cvc, generationtime})"

export async function decryptCommand(
  values: { key?: string; 'max-age'?: string; 'code-only'?: boolean; explain?: boolean },
  io: Io,
): Promise<void> {
  const keyText = (await readInputFile('--key', values.key)).toString('utf8')
  const maxAge = values['max-age'] === undefined ? undefined : Number(values['max-age'])
  if (maxAge !== undefined && !(Number.isInteger(maxAge) && maxAge >= 0))
    throw new CliError('--max-age must be a whole number of seconds', 2)
  let decryptor
  try {
    decryptor = await createCardDecryptor(keyText, maxAge === undefined ? {} : { maxAgeSeconds: maxAge })
  } catch (error) {
    throw new CliError(`--key ${values.key}: ${(error as Error).message}`)
  }
  try {
    const jwe = (await readStdin(io.stdin)).trim()
    const payload = values['code-only'] ? (await decryptor.decryptSecurityCode(jwe)).securityCode : (await decryptor.decrypt(jwe)).card
    io.stdout.write(`${JSON.stringify(payload)}\n`)
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error
    // Exactly the service's message; --explain adds the reason (field and rule, never a value).
    throw new CliError(values.explain ? `${error.message}\n(${error.detail})` : error.message, 1, true)
  }
}

import { readFile } from 'node:fs/promises'

/** A failure the CLI reports as one line on stderr, with its exit code. Never built from card data. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    /** Print the message alone, without the "card-jwe:" prefix (the service's own words). */
    readonly bare = false,
  ) {
    super(message)
  }
}

/** Card JSON or a JWE is small; more than this on stdin is a mistake, not a card. */
const MAX_STDIN_BYTES = 64 * 1024

export async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)
    size += bytes.length
    if (size > MAX_STDIN_BYTES) throw new CliError(`stdin: more than ${MAX_STDIN_BYTES} bytes`)
    chunks.push(bytes)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export async function readInputFile(option: string, path: string | undefined): Promise<Buffer> {
  if (!path) throw new CliError(`${option} FILE is required`, 2)
  try {
    return await readFile(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'read error'
    throw new CliError(`cannot read ${option} ${path} (${code})`)
  }
}

export interface Io {
  readonly stdin: NodeJS.ReadableStream
  readonly stdout: NodeJS.WritableStream
  readonly stderr: NodeJS.WritableStream
}

import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { certCommand, CERT_USAGE } from './commands/cert.js'
import { decryptCommand, DECRYPT_USAGE } from './commands/decrypt.js'
import { encryptCommand, ENCRYPT_USAGE } from './commands/encrypt.js'
import { inspectCommand, INSPECT_USAGE } from './commands/inspect.js'
import { CliError, type Io } from './io.js'

const USAGE = ['usage:', CERT_USAGE, ENCRYPT_USAGE, DECRYPT_USAGE, INSPECT_USAGE, 'card-jwe --version'].join('\n  ')

/** The testkit's version, from its package.json (dist/cli/main.js -> ../../package.json). */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version
}

/** Names an unknown command only when it looks like one: what was typed might be card data. */
function unknownCommand(name: string): string {
  return /^[A-Za-z][A-Za-z-]{0,31}$/.test(name) ? `unknown command "${name}"` : 'unknown command'
}

const OPTIONS = {
  out: { type: 'string' },
  days: { type: 'string' },
  cert: { type: 'string' },
  fingerprint: { type: 'string' },
  key: { type: 'string' },
  'max-age': { type: 'string' },
  explain: { type: 'boolean' },
  'code-only': { type: 'boolean' },
  force: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const

const COMMANDS = {
  cert: certCommand,
  encrypt: encryptCommand,
  decrypt: decryptCommand,
  inspect: inspectCommand,
} as const

/** Runs one CLI invocation and returns its exit code: 0 done, 1 refused or failed, 2 usage. */
export async function main(args: readonly string[], io: Io = process): Promise<number> {
  try {
    let parsed
    try {
      parsed = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true })
    } catch (error) {
      throw new CliError(`${(error as Error).message}\n${USAGE}`, 2)
    }
    const [name, ...extra] = parsed.positionals
    if (parsed.values.help || name === 'help') {
      io.stdout.write(`${USAGE}\n`)
      return 0
    }
    if (parsed.values.version) {
      io.stdout.write(`${version()}\n`)
      return 0
    }
    if (!name) throw new CliError(USAGE, 2)
    if (!Object.hasOwn(COMMANDS, name)) throw new CliError(`${unknownCommand(name)}\n${USAGE}`, 2)
    if (extra.length > 0) throw new CliError(`${name}: unexpected arguments\n${USAGE}`, 2)
    await COMMANDS[name as keyof typeof COMMANDS](parsed.values, io)
    return 0
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr.write(error.bare ? `${error.message}\n` : `card-jwe: ${error.message}\n`)
      return error.exitCode
    }
    // Unexpected: report the kind only; a stack could quote input.
    io.stderr.write(`card-jwe: internal error (${(error as Error)?.name ?? 'unknown'})\n`)
    return 1
  }
}

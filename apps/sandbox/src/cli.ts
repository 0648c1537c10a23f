#!/usr/bin/env node
/**
 * `npx card-jwe-sandbox`: the sandbox on loopback until Ctrl-C, for a shop in development. Prints
 * what a shop needs to talk to it: base URL, certificate path and SHA-256 fingerprint, and with
 * --ready-made-store a registered shop and an onboarded store to pay with at once; with --json as one
 * JSON line a script can read.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { startSandbox } from './start-sandbox.js'
import { REGISTRATION_PATH, SANDBOX_DEFAULT_PORT } from '@card-jwe/service-client'

/** The port `card-jwe-sandbox` listens on unless told otherwise; the service client's default base URL. */

const USAGE = `Usage: card-jwe-sandbox [options]

  --port N            port on 127.0.0.1 (default ${SANDBOX_DEFAULT_PORT}; 0 for a free one; env SANDBOX_PORT)
  --data-dir DIR      where the database and certificate live, kept across runs
                      (default ./.sandbox-data; env SANDBOX_DATA_DIR)
  --ready-made-store  also create a registered shop with an onboarded store, and print its
                      shop id, service secret and store id (skips registration and merchant set-up)
  --json              print those as one line of JSON on standard output once ready (baseUrl,
                      certificatePath, privateKeyPath, fingerprint, databasePath, and shopId,
                      serviceSecret, storeId or registrationUrl); the log goes to standard error
  --help, --version
`

function fail(message: string): never {
  process.stderr.write(`card-jwe-sandbox: ${message}\n\n${USAGE}`)
  process.exit(2)
}

let args: ReturnType<typeof parse>
function parse() {
  return parseArgs({
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'ready-made-store': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
      version: { type: 'boolean' },
    },
    strict: true,
  }).values
}
try {
  args = parse()
} catch (error) {
  fail((error as Error).message)
}
if (args.help) {
  process.stdout.write(USAGE)
  process.exit(0)
}
if (args.version) {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
  process.stdout.write(`${version}\n`)
  process.exit(0)
}
const portText = args.port ?? process.env.SANDBOX_PORT ?? String(SANDBOX_DEFAULT_PORT)
if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65_535) fail('--port: a whole number from 0 to 65535')

const dataDir = resolve(args['data-dir'] ?? process.env.SANDBOX_DATA_DIR ?? '.sandbox-data')
const sandbox = await startSandbox({
  dataDir,
  port: Number(portText),
  // With --json, standard output is that one line alone.
  ...(args.json ? { log: (line: string) => void process.stderr.write(`[sandbox] ${line}\n`) } : {}),
}).catch((error: unknown) => {
  if ((error as { code?: unknown } | undefined)?.code !== 'EADDRINUSE') throw error
  process.stderr.write(
    `card-jwe-sandbox: port ${portText} on 127.0.0.1 is in use: stop what holds it, or pass --port N (0 for any free one)\n`,
  )
  return process.exit(1)
})
const { baseUrl, certificatePath, privateKeyPath, fingerprint, databasePath } = sandbox
const shop = args['ready-made-store'] ? sandbox.createReadyMadeShop() : undefined
const registrationUrl = `${baseUrl}${REGISTRATION_PATH}`
if (args.json) {
  const ready = { baseUrl, certificatePath, privateKeyPath, fingerprint, databasePath }
  const then = shop ? { shopId: shop.shopId, serviceSecret: shop.serviceSecret, storeId: shop.storeId } : { registrationUrl }
  process.stdout.write(`${JSON.stringify({ ...ready, ...then })}\n`)
} else {
  const lines = [
    `sandbox listening at ${baseUrl}`,
    `certificate ${certificatePath}`,
    `private key ${privateKeyPath} (test only: cardDecryptionKey for @card-jwe/testkit/playwright)`,
    `SHA-256 ${fingerprint}`,
    `database ${databasePath}`,
    ...(shop
      ? [`shop id ${shop.shopId}`, `service secret ${shop.serviceSecret}`, `store id ${shop.storeId}`]
      : [`register a shop: POST ${registrationUrl} {shopUrl, key, secret} (or restart with --ready-made-store)`]),
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}
// Said on the way out: a shop developer's Ctrl-C otherwise ends it without a word of what was kept.
// The line is flushed before the exit (a pipe's write is asynchronous); a second Ctrl-C ends it at once.
const exitSaying = (stream: NodeJS.WriteStream, line: string, code: number) => stream.write(line, () => process.exit(code))
const stop = () =>
  void sandbox.close().then(
    () =>
      exitSaying(
        args.json ? process.stderr : process.stdout,
        `[sandbox] stopped; its shops, payments and certificate stay in ${dataDir} for the next start with this --data-dir\n`,
        0,
      ),
    (error: unknown) =>
      exitSaying(process.stderr, `card-jwe-sandbox: closing failed (${(error as { code?: unknown })?.code ?? 'unknown'})\n`, 1),
  )
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop)

import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { startSandbox } from '@card-jwe/sandbox'
import { SANDBOX_DEFAULT_PORT } from '@card-jwe/service-client'
import { startShop } from './start-shop.js'

/**
 * `pnpm demo`: the embedded sandbox and the shop on loopback, registered; the admin page's wizard
 * connects the merchant account and onboards a store before the checkout takes payments.
 * SERVICE_BASE_URL and CERTIFICATE_PATH point the same shop at the service's dev environment.
 */
/** The demo shop's port unless SHOP_PORT says otherwise. */
const DEMO_SHOP_PORT = 8780

const dataDir = resolve(process.env.DEMO_DATA_DIR ?? '.demo-data')
const external = process.env.SERVICE_BASE_URL
/** `pnpm demo -- --ready-made-store` (or DEMO_READY_MADE_STORE=1): skip the set-up wizard with an onboarded store. */
const readyMadeStore = process.argv.includes('--ready-made-store') || process.env.DEMO_READY_MADE_STORE === '1'
// Of the sandbox's log, only its "mail" lines: that is where a verification code arrives.
const sandboxLog = (line: string) => void (line.startsWith('mail ') && process.stdout.write(`[sandbox] ${line}\n`))
/**
 * Ends the demo with one plain line when a port is taken (a demo or sandbox still running), after
 * `closeFirst` (what already started), else throws on.
 */
async function exitIfPortTaken(
  error: unknown,
  port: number,
  variable: string,
  what: string,
  closeFirst: () => Promise<void> = async () => {},
): Promise<never> {
  if ((error as { code?: unknown } | undefined)?.code !== 'EADDRINUSE') throw error
  process.stderr.write(
    `demo: port ${port} (${what}) is in use: stop what holds it, or set ${variable} to another port (0 for any free one)\n`,
  )
  await closeFirst()
  process.exit(1)
}
const sandboxPort = Number(process.env.SANDBOX_PORT ?? SANDBOX_DEFAULT_PORT)
const sandbox = external
  ? undefined
  : await startSandbox({ dataDir: resolve(dataDir, 'sandbox'), port: sandboxPort, log: sandboxLog }).catch((error: unknown) =>
      exitIfPortTaken(error, sandboxPort, 'SANDBOX_PORT', 'the embedded sandbox'),
    )
const certificatePem = external ? await readFile(process.env.CERTIFICATE_PATH ?? '', 'utf8') : sandbox!.certificatePem
const shopPort = Number(process.env.SHOP_PORT ?? DEMO_SHOP_PORT)
const shop = await startShop({
  dataDir: resolve(dataDir, 'shop'),
  serviceBaseUrl: external ?? sandbox!.baseUrl,
  certificatePem,
  port: shopPort,
  readyMadeStore,
  // A changed copy of the built pages, e.g. for a test that proves it catches a broken page.
  ...(process.env.DEMO_FRONT_DIR ? { frontDir: resolve(process.env.DEMO_FRONT_DIR) } : {}),
  ...(sandbox ? { sandboxInboxUrl: `${sandbox.baseUrl}/sandbox/inbox` } : {}),
}).catch((error: unknown) => exitIfPortTaken(error, shopPort, 'SHOP_PORT', 'the shop', async () => sandbox?.close()))
process.stdout.write(
  [
    '',
    `shop:     ${shop.url}`,
    `admin:    ${shop.url}/admin.html${(await shop.storeId()) ? '' : '  <- start here: connect your account, create and onboard a store'}`,
    `service:  ${external ?? `${sandbox!.baseUrl} (embedded sandbox; challenge answer "password")`}`,
    '',
  ].join('\n'),
)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void Promise.all([shop.close(), sandbox?.close()]).then(() => process.exit(0)))
}

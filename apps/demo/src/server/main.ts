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
const sandbox = external
  ? undefined
  : await startSandbox({
      dataDir: resolve(dataDir, 'sandbox'),
      port: Number(process.env.SANDBOX_PORT ?? SANDBOX_DEFAULT_PORT),
      log: sandboxLog,
    })
const certificatePem = external ? await readFile(process.env.CERTIFICATE_PATH ?? '', 'utf8') : sandbox!.certificatePem
const shop = await startShop({
  dataDir: resolve(dataDir, 'shop'),
  serviceBaseUrl: external ?? sandbox!.baseUrl,
  certificatePem,
  port: Number(process.env.SHOP_PORT ?? DEMO_SHOP_PORT),
  readyMadeStore,
  // A changed copy of the built pages, e.g. for a test that proves it catches a broken page.
  ...(process.env.DEMO_FRONT_DIR ? { frontDir: resolve(process.env.DEMO_FRONT_DIR) } : {}),
  ...(sandbox ? { sandboxInboxUrl: `${sandbox.baseUrl}/sandbox/inbox` } : {}),
})
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

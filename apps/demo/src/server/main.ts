import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { startSandbox } from '@card-jwe/sandbox'
import { startShop } from './start-shop.js'

/**
 * `pnpm demo`: the embedded sandbox and the shop on loopback, registered, ready to pay.
 * SERVICE_BASE_URL and CERTIFICATE_PATH point the same shop at the service's dev environment.
 */
const dataDir = resolve(process.env.DEMO_DATA_DIR ?? '.demo-data')
const external = process.env.SERVICE_BASE_URL
const sandbox = external ? undefined : await startSandbox({ dataDir: resolve(dataDir, 'sandbox'), port: Number(process.env.SANDBOX_PORT ?? 8790), log: () => {} })
const certificatePem = external ? await readFile(process.env.CERTIFICATE_PATH ?? '', 'utf8') : sandbox!.certificatePem
const shop = await startShop({
  dataDir: resolve(dataDir, 'shop'),
  serviceBaseUrl: external ?? sandbox!.baseUrl,
  certificatePem,
  port: Number(process.env.SHOP_PORT ?? 8780),
})
process.stdout.write(
  [
    '',
    `shop:     ${shop.url}`,
    `admin:    ${shop.url}/admin.html`,
    `service:  ${external ?? `${sandbox!.baseUrl} (embedded sandbox; challenge answer "password")`}`,
    '',
  ].join('\n'),
)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void Promise.all([shop.close(), sandbox?.close()]).then(() => process.exit(0)))
}

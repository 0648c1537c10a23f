import { resolve } from 'node:path'
import { startSandbox } from './start-sandbox.js'

/** `pnpm sandbox`: no configuration needed. SANDBOX_PORT and SANDBOX_DATA_DIR override the defaults. */
export const DEFAULT_PORT = 8790

const sandbox = await startSandbox({
  dataDir: resolve(process.env.SANDBOX_DATA_DIR ?? '.sandbox-data'),
  port: Number(process.env.SANDBOX_PORT ?? DEFAULT_PORT),
})
process.stdout.write(
  [
    `sandbox listening at ${sandbox.baseUrl}`,
    `certificate ${sandbox.certificatePath}`,
    `SHA-256 ${sandbox.fingerprint}`,
    `database ${sandbox.databasePath}`,
    `register a shop: POST ${sandbox.baseUrl}/shopplatform/processor/shop-registrations {shopUrl, key, secret}`,
    '',
  ].join('\n'),
)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void sandbox.close().then(() => process.exit(0)))

/**
 * The shop under test for Playwright: one demo shop per worker, started as its own process (as a
 * shop's backend would be) against that worker's sandbox. Our fixture is `sandbox`; this file is
 * the part every shop writes for itself.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test as sandboxTest } from '@card-jwe/sandbox/playwright'

/** The demo's server entry; a project outside the workspace points DEMO_SHOP_MAIN at it. */
const SHOP_MAIN = process.env.DEMO_SHOP_MAIN ?? fileURLToPath(new URL('../dist/server/main.js', import.meta.url))

export const test = sandboxTest.extend<object, { shopUrl: string }>({
  shopUrl: [
    async ({ sandbox }, use) => {
      const shop = spawn(process.execPath, [SHOP_MAIN], {
        env: {
          ...process.env,
          SERVICE_BASE_URL: sandbox.baseUrl,
          CERTIFICATE_PATH: sandbox.certificatePath,
          DEMO_READY_MADE_STORE: '1',
          DEMO_DATA_DIR: mkdtempSync(join(tmpdir(), 'demo-shop-')),
          SHOP_PORT: '0',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      const url = await new Promise<string>((resolve, reject) => {
        let output = ''
        shop.stdout.on('data', (chunk: Buffer) => {
          output += chunk
          const found = /shop:\s+(http:\/\/\S+)/.exec(output)
          if (found) resolve(found[1]!)
        })
        shop.on('exit', (code) => reject(new Error(`the shop exited (${code}) before it started`)))
      })
      await use(url)
      shop.kill('SIGTERM')
    },
    { scope: 'worker' },
  ],
})
export { answerChallenge, EXPECTED_CARD_JWE_HEADER, expect, findTestCard } from '@card-jwe/sandbox/playwright'

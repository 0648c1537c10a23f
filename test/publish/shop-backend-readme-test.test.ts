/**
 * The shop-backend README's test file ("Testing your shop against the sandbox"), taken from the
 * README as written, run with the shop's own Vitest in a project outside the workspace made from the
 * tarballs: its `startShopUnderTest` connects the back end to a sandbox's ready-made shop, a card
 * pays, and a challenged card pays with its steps done without a browser. Once against the shop the
 * sandbox's command printed (the sandbox's own list then holds that shop's two payments: connected,
 * not registered anew), once against a sandbox the file starts itself.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshGet, startSandboxCommand, type SandboxCommand } from './child-processes.ts'
import { readmeBlocks } from './readme-blocks.ts'
import { makeShopProject, root, type ShopProject } from './shop-project.ts'

const SETUP_TIMEOUT = 240_000
const STEP_TIMEOUT = 150_000
const README = 'packages/shop-backend/README.md'

let project: ShopProject
let sandbox: SandboxCommand | undefined
let sandboxData: string

/** The README's test file: the one block that begins with its name. */
function readmeTestFile(): string {
  const found = readmeBlocks(root).filter((b) => b.file === README && b.code.startsWith('// checkout.test.ts\n'))
  expect(found).toHaveLength(1)
  return found[0]!.code
}

/** Runs the README's test file with the shop's Vitest, this run's own variables left out; its output. */
function runReadmeTest(extra: Record<string, string>): string {
  const dir = join(project.dir, 'shop-tests')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'checkout.test.ts'), readmeTestFile())
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|SANDBOX_|FORCE_COLOR)/.test(name)))
  const run = spawnSync(
    join(project.dir, 'node_modules/.bin/vitest'),
    ['run', '--root', dir, '--testTimeout', '60000', '--hookTimeout', '60000'],
    { cwd: project.dir, env: { ...env, ...extra, NO_COLOR: '1' }, encoding: 'utf8' },
  )
  const output = stripVTControlCharacters(`${run.stdout}${run.stderr}`)
  expect(run.status, output).toBe(0)
  expect(output).toMatch(/Tests\s+2 passed \(2\)/)
  return output
}

beforeAll(async () => {
  project = makeShopProject()
  sandboxData = mkdtempSync(join(tmpdir(), 'card-jwe-readme-test-sandbox-'))
  sandbox = await startSandboxCommand(project.dir, sandboxData)
}, SETUP_TIMEOUT)

afterAll(() => {
  if (sandbox?.child.exitCode === null) sandbox.child.kill('SIGTERM')
  rmSync(sandboxData, { recursive: true, force: true })
})

describe("the shop-backend README's test file, from the tarballs, with the shop's Vitest", () => {
  it(
    'pays a card on the ready-made shop the sandbox command printed, connected, not registered anew',
    async () => {
      const { url, certificatePath, shop } = sandbox!
      runReadmeTest({
        SANDBOX_URL: url,
        SANDBOX_CERTIFICATE: certificatePath,
        SANDBOX_SHOP_ID: shop.shopId,
        SANDBOX_SERVICE_SECRET: shop.serviceSecret,
        SANDBOX_STORE_ID: shop.storeId,
      })
      const held = await freshGet(`${url}/sandbox/payments?shopId=${encodeURIComponent(shop.shopId)}`)
      // A card without and one with 3-D Secure, its steps done without a browser.
      const payment = { storeId: shop.storeId, resultCode: 'Authorised' }
      expect(JSON.parse(held.body)).toMatchObject({ count: 2, payments: [payment, payment] })
    },
    STEP_TIMEOUT,
  )

  it('pays a card on a sandbox of its own (startTestSandbox)', () => void runReadmeTest({}), STEP_TIMEOUT)
})

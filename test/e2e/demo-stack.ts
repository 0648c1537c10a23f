/**
 * The whole demo on loopback for a browser test: the sandbox, the shop (serving the built pages),
 * and real Chromium with console errors, page errors and CSP violations collected.
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright'
import { startTestSandbox, type TestSandbox } from '@card-jwe/sandbox'
import { captureCardRequests, type CardCapture } from '@card-jwe/testkit/capture'
import { startShop, type RunningShop } from '@card-jwe/demo'
import { chromiumLaunchOptions } from '../support/browsers.js'

const FRONT_DIR = fileURLToPath(new URL('../../apps/demo/dist/front', import.meta.url))
/** Screenshots of every run, kept as test artefacts (not committed). */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-results/demo', import.meta.url))

export interface DemoStack {
  /** The sandbox as the Playwright fixture makes it for a worker (fresh folder, free port). */
  readonly sandbox: TestSandbox
  readonly shop: RunningShop
  /** The shop's data folder (its order table `shop.sqlite`, its ledger `payments.sqlite`). */
  readonly shopDataDir: string
  /** Chromium, unless the stack was started without it. */
  readonly browser: Browser | undefined
  readonly shopLog: string[]
  /**
   * A fresh page; every console error, page error and CSP violation lands in `problems`, and every
   * request in `capture` (the testkit's card capture, keyed with the sandbox's private key).
   */
  page(): Promise<{ page: Page; problems: string[]; capture: CardCapture }>
  screenshot(page: Page, name: string): Promise<string>
  close(): Promise<void>
}

/**
 * `readyMadeStore: false` starts from an empty sandbox: the admin wizard must connect the shop first.
 * `chromiumArgs` are added to the launch flags (e.g. host-resolver rules for a hostile site's name).
 */
export async function startDemoStack(
  options: {
    readyMadeStore?: boolean
    chromiumArgs?: string[]
    launchChromium?: boolean
    serviceUrlFor?: (sandboxBaseUrl: string) => Promise<string>
    /** The shop's clock (its ledger's and orders'), for a test that lets time pass; the service keeps the real one. */
    now?: () => Date
  } = {},
): Promise<DemoStack> {
  if (!existsSync(join(FRONT_DIR, 'index.html'))) throw new Error('apps/demo/dist/front is missing: run `pnpm build` first')
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const dataDir = mkdtempSync(join(tmpdir(), 'card-jwe-demo-'))
  const sandbox = await startTestSandbox()
  const shopLog: string[] = []
  const shop = await startShop({
    dataDir: join(dataDir, 'shop'),
    // A test may put something between the shop and the service (a proxy that freezes).
    serviceBaseUrl: options.serviceUrlFor ? await options.serviceUrlFor(sandbox.baseUrl) : sandbox.baseUrl,
    certificatePem: sandbox.certificatePem,
    frontDir: FRONT_DIR,
    pollIntervalMs: 3_600_000, // the tests run the poller themselves, from the admin page
    log: (line) => shopLog.push(line),
    readyMadeStore: options.readyMadeStore ?? true,
    sandboxInboxUrl: `${sandbox.baseUrl}/sandbox/inbox`,
    ...(options.now ? { now: options.now } : {}),
  })
  const launch = chromiumLaunchOptions()
  // Tests of the other engines bring their own browser (shopper-browsers.ts).
  const browser =
    options.launchChromium === false
      ? undefined
      : await chromium.launch({ ...launch, args: [...launch.args, ...(options.chromiumArgs ?? [])] })
  return {
    sandbox,
    shop,
    shopDataDir: join(dataDir, 'shop'),
    browser,
    shopLog,
    async page() {
      if (!browser) throw new Error('this demo stack was started without Chromium')
      const page = await browser.newPage()
      const problems: string[] = []
      page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`))
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) =>
          console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
        )
      })
      const capture = await captureCardRequests(page, { privateKey: sandbox.privateKeyPem })
      return { page, problems, capture }
    },
    async screenshot(page, name) {
      const path = join(SCREENSHOT_DIR, `${name}.png`)
      await page.screenshot({ path, fullPage: true })
      return path
    },
    async close() {
      await browser?.close()
      await shop.close()
      await sandbox.close()
    },
  }
}

import { fileURLToPath } from 'node:url'
import { defaultClientConditions } from 'vite'
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import type { BrowserCommand } from 'vitest/node'
import { setScreenSize } from './test/support/browser-commands.ts'
import { sandboxCommands } from './apps/sandbox/src/testing/vitest-commands.ts'
import { answerChallenge, closeSandbox, frameUrl, sendDetails, startCardPayment } from './test/support/checkout-commands.ts'
import { browserInstances, wantedEngines } from './test/support/browsers.ts'
import { FAKETIME_LEFT_OUT_FILES, UNDER_FAKETIME } from './test/support/faketime.ts'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/**
 * Tests run against the packages' sources, so a change is tested without a build: every package
 * export names its source file under this condition, after `types` and before `default`.
 */
const SOURCE_CONDITION = '@card-jwe/source'

/** Makes the test certificates once per run and hands them to Node and browser tests alike. */
const testCertificates = here('./packages/testkit/src/vitest/global-setup.ts')

/** The sandbox a shop's Vitest browser tests get, with its capture commands below. */
const runSandbox = here('./apps/sandbox/src/testing/vitest-global-setup.ts')

const cardJweSuite = ['packages/card-jwe/test/**/*.test.ts']

/** The shop back end's projects: a real PostgreSQL server for the run, and time for real processes and databases. */
const shopBackendTests = {
  globalSetup: [here('./packages/shop-backend/test/support/postgres-server.ts')],
  testTimeout: 30_000,
  hookTimeout: 120_000,
}

type ProjectTest = NonNullable<TestProjectInlineConfiguration['test']>
type BrowserCommands = Record<string, BrowserCommand<never[]>>

/** A project that runs in Node. */
const inNode = (test: ProjectTest): TestProjectInlineConfiguration => ({ extends: true, test: { environment: 'node', ...test } })

/** A project that runs in every browser the suite has, with the given runner-side commands. */
const inBrowsers = (test: ProjectTest, commands: BrowserCommands = {}): TestProjectInlineConfiguration => ({
  extends: true,
  test: { ...test, browser: { enabled: true, headless: true, screenshotFailures: false, instances: browserInstances(), commands } },
})

export default defineConfig({
  // The browser projects resolve as the client does: the source, then the client's own conditions.
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  // The Node projects: added to the server conditions Vitest sets (node, development|production).
  ssr: { resolve: { conditions: [SOURCE_CONDITION] } },
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    // expect.poll waits for what a payment's round trip brings (a challenge frame): 1 s, its default, is a timing test on a busy machine.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      inNode({ name: 'card-jwe:node', include: cardJweSuite, globalSetup: [testCertificates] }),
      inBrowsers({ name: 'card-jwe:browser', include: cardJweSuite, globalSetup: [testCertificates] }),
      inNode({
        name: 'card-fields:node',
        include: ['packages/card-fields/test/**/*.test.ts'],
        exclude: [...configDefaults.exclude, '**/*.browser.test.ts'],
      }),
      // The saved-card test encrypts what the fields give and opens it with the reference decryptor.
      inBrowsers({ name: 'card-fields:browser', include: ['packages/card-fields/test/**/*.test.ts'], globalSetup: [testCertificates] }),
      inNode({ name: 'checkout-actions:node', include: ['packages/checkout-actions/test/**/*.test.ts'] }),
      inBrowsers({ name: 'checkout-actions:browser', include: ['packages/checkout-actions/test/**/*.test.ts'] }),
      inNode({
        name: 'checkout:node',
        include: ['packages/checkout/test/**/*.test.ts'],
        exclude: [...configDefaults.exclude, '**/*.browser.test.ts'],
      }),
      // Each engine pays at a real shop back end and sandbox of its own (test/support/test-shop.ts).
      inBrowsers(
        {
          name: 'checkout:browser',
          include: ['packages/checkout/test/**/*.browser.test.ts'],
          globalSetup: [here('./packages/checkout/test/support/global-setup.ts')],
          testTimeout: 30_000,
        },
        { answerChallenge },
      ),
      inNode({ name: 'browser-info:node', include: ['packages/browser-info/test/**/*.node.test.ts'] }),
      inBrowsers({ name: 'browser-info:browser', include: ['packages/browser-info/test/**/*.browser.test.ts'] }, { setScreenSize }),
      inNode({ name: 'payment-validator', include: ['packages/payment-validator/test/**/*.test.ts'] }),
      // A real PostgreSQL server for the run (its store's conformance and the multi-instance tests).
      inNode({
        ...shopBackendTests,
        name: 'shop-backend',
        include: ['packages/shop-backend/test/**/*.test.ts'],
        exclude: [...configDefaults.exclude, 'packages/shop-backend/test/runtimes/**'],
      }),
      // The back end on each server runtime's own HTTP server (scripts/run-tests.mjs runs it in Deno and Bun too).
      inNode({ ...shopBackendTests, name: 'shop-backend-runtimes:node', include: ['packages/shop-backend/test/runtimes/**/*.test.ts'] }),
      inNode({ name: 'sqlite-group-commit', include: ['packages/sqlite-group-commit/test/**/*.test.ts'] }),
      inNode({ name: 'service-client:node', include: ['packages/service-client/test/**/*.test.ts'] }),
      // A hook may launch Chromium (the ACS page's test): 10 s, the default, is a timing test on a busy machine.
      inNode({
        name: 'sandbox',
        include: ['apps/sandbox/test/**/*.test.ts'],
        globalSetup: [testCertificates],
        testTimeout: 30_000,
        hookTimeout: 60_000,
      }),
      inNode({ name: 'testkit', include: ['packages/testkit/test/**/*.test.ts'], globalSetup: [testCertificates] }),
      inNode({
        name: 'cross-package:node',
        include: ['test/**/*.test.ts'],
        exclude: [
          ...configDefaults.exclude,
          'test/**/*.browser.test.ts',
          'test/e2e/**',
          'test/hardening/**',
          ...(UNDER_FAKETIME ? FAKETIME_LEFT_OUT_FILES.map((f) => f.file) : []),
        ],
        globalSetup: [testCertificates],
        testTimeout: 30_000,
      }),
      // Fuzzing and crash-under-load runs against the built apps; FUZZ_RUNS and CRASH_* lengthen them.
      inNode({
        name: 'hardening',
        include: ['test/hardening/**/*.test.ts'],
        globalSetup: [testCertificates],
        testTimeout: 300_000,
        hookTimeout: 60_000,
      }),
      inNode({
        name: 'demo:e2e',
        include: ['test/e2e/**/*.test.ts'],
        // The demo in Firefox and WebKit, unless this run leaves both out (CARD_JWE_ENGINES).
        exclude: [...configDefaults.exclude, ...(wantedEngines().size === 1 ? ['test/e2e/engines.test.ts'] : [])],
        testTimeout: 60_000,
        hookTimeout: 60_000,
      }),
      inBrowsers(
        {
          name: 'cross-package:browser',
          include: ['test/**/*.browser.test.{ts,tsx}'],
          globalSetup: [testCertificates, runSandbox],
          testTimeout: 30_000,
        },
        { startCardPayment, sendDetails, answerChallenge, frameUrl, closeSandbox, ...sandboxCommands() },
      ),
    ],
  },
})

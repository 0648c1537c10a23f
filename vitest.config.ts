import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import type { BrowserCommand } from 'vitest/node'
import { setScreenSize } from './test/support/browser-commands.ts'
import { sandboxCommands } from './apps/sandbox/src/testing/vitest-commands.ts'
import { answerChallenge, closeSandbox, frameUrl, sendDetails, startCardPayment } from './test/support/checkout-commands.ts'
import { browserInstances, wantedEngines } from './test/support/browsers.ts'
import { FAKETIME_LEFT_OUT_FILES, UNDER_FAKETIME } from './test/support/faketime.ts'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** Tests run against the packages' sources, so a change is tested without a build. */
const sourceAliases = [
  { find: /^card-jwe$/, replacement: here('./packages/card-jwe/src/index.ts') },
  { find: /^@card-jwe\/card-fields$/, replacement: here('./packages/card-fields/src/index.ts') },
  { find: /^@card-jwe\/checkout-actions$/, replacement: here('./packages/checkout-actions/src/index.ts') },
  { find: /^@card-jwe\/preact-example$/, replacement: here('./apps/preact-example/src/card-form.tsx') },
  { find: /^@card-jwe\/testkit\/decryptor$/, replacement: here('./packages/testkit/src/decryptor/index.ts') },
  { find: /^@card-jwe\/testkit\/vitest$/, replacement: here('./packages/testkit/src/vitest/test-certificates.ts') },
  { find: /^@card-jwe\/testkit\/capture$/, replacement: here('./packages/testkit/src/capture/index.ts') },
  { find: /^@card-jwe\/sandbox\/vitest$/, replacement: here('./apps/sandbox/src/testing/vitest.ts') },
  { find: /^@card-jwe\/testkit\/test-cards$/, replacement: here('./packages/testkit/src/test-cards.ts') },
  { find: /^@card-jwe\/testkit$/, replacement: here('./packages/testkit/src/index.ts') },
  { find: /^@card-jwe\/browser-info\/server$/, replacement: here('./packages/browser-info/src/server.ts') },
  { find: /^@card-jwe\/browser-info$/, replacement: here('./packages/browser-info/src/index.ts') },
  { find: /^@card-jwe\/service-client\/signing$/, replacement: here('./packages/service-client/src/signing.ts') },
  { find: /^@card-jwe\/service-client\/idempotency$/, replacement: here('./packages/service-client/src/idempotency.ts') },
  { find: /^@card-jwe\/service-client$/, replacement: here('./packages/service-client/src/index.ts') },
  { find: /^@card-jwe\/demo$/, replacement: here('./apps/demo/src/server/index.ts') },
  { find: /^@card-jwe\/sandbox$/, replacement: here('./apps/sandbox/src/index.ts') },
  { find: /^@card-jwe\/shop-backend\/sqlite$/, replacement: here('./packages/shop-backend/src/sqlite/index.ts') },
  { find: /^@card-jwe\/shop-backend\/node$/, replacement: here('./packages/shop-backend/src/node/index.ts') },
  { find: /^@card-jwe\/shop-backend\/hono$/, replacement: here('./packages/shop-backend/src/hono/index.ts') },
  { find: /^@card-jwe\/shop-backend\/express$/, replacement: here('./packages/shop-backend/src/express/index.ts') },
  { find: /^@card-jwe\/shop-backend\/fastify$/, replacement: here('./packages/shop-backend/src/fastify/index.ts') },
  { find: /^@card-jwe\/shop-backend$/, replacement: here('./packages/shop-backend/src/index.ts') },
  { find: /^@card-jwe\/payment-validator$/, replacement: here('./packages/payment-validator/src/index.ts') },
]

/** Makes the test certificates once per run and hands them to Node and browser tests alike. */
const testCertificates = here('./packages/testkit/src/vitest/global-setup.ts')

/** The sandbox a shop's Vitest browser tests get (issue 15), with its capture commands below. */
const runSandbox = here('./apps/sandbox/src/testing/vitest-global-setup.ts')

const cardJweSuite = ['packages/card-jwe/test/**/*.test.ts']

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
  resolve: { alias: sourceAliases },
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      inNode({ name: 'card-jwe:node', include: cardJweSuite, globalSetup: [testCertificates] }),
      inBrowsers({ name: 'card-jwe:browser', include: cardJweSuite, globalSetup: [testCertificates] }),
      inNode({
        name: 'card-fields:node',
        include: ['packages/card-fields/test/**/*.test.ts'],
        exclude: [...configDefaults.exclude, '**/*.browser.test.ts'],
      }),
      inBrowsers({ name: 'card-fields:browser', include: ['packages/card-fields/test/**/*.test.ts'] }),
      inNode({ name: 'checkout-actions:node', include: ['packages/checkout-actions/test/**/*.test.ts'] }),
      inBrowsers({ name: 'checkout-actions:browser', include: ['packages/checkout-actions/test/**/*.test.ts'] }),
      inNode({ name: 'browser-info:node', include: ['packages/browser-info/test/**/*.node.test.ts'] }),
      inBrowsers({ name: 'browser-info:browser', include: ['packages/browser-info/test/**/*.browser.test.ts'] }, { setScreenSize }),
      inNode({ name: 'payment-validator', include: ['packages/payment-validator/test/**/*.test.ts'] }),
      // A real PostgreSQL server for the run (its store's conformance and the multi-instance tests, issue 26).
      inNode({
        name: 'shop-backend',
        include: ['packages/shop-backend/test/**/*.test.ts'],
        globalSetup: [here('./packages/shop-backend/test/support/postgres-server.ts')],
        testTimeout: 30_000,
        hookTimeout: 120_000,
      }),
      inNode({ name: 'service-client:node', include: ['packages/service-client/test/**/*.test.ts'] }),
      inNode({ name: 'sandbox', include: ['apps/sandbox/test/**/*.test.ts'], globalSetup: [testCertificates], testTimeout: 30_000 }),
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
      // Fuzzing and crash-under-load runs against the built apps (issue 8); FUZZ_RUNS and CRASH_* lengthen them.
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

import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'
import { setScreenSize } from './test/support/browser-commands.ts'
import { answerChallenge, closeSandbox, frameUrl, sendDetails, startCardPayment } from './test/support/checkout-commands.ts'
import { browserInstances } from './test/support/browsers.ts'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** Tests run against the packages' sources, so a change is tested without a build. */
const sourceAliases = [
  { find: /^card-jwe$/, replacement: here('./packages/card-jwe/src/index.ts') },
  { find: /^@card-jwe\/card-fields$/, replacement: here('./packages/card-fields/src/index.ts') },
  { find: /^@card-jwe\/checkout-actions$/, replacement: here('./packages/checkout-actions/src/index.ts') },
  { find: /^@card-jwe\/preact-example$/, replacement: here('./apps/preact-example/src/card-form.tsx') },
  { find: /^@card-jwe\/testkit\/decryptor$/, replacement: here('./packages/testkit/src/decryptor/index.ts') },
  { find: /^@card-jwe\/testkit\/vitest$/, replacement: here('./packages/testkit/src/vitest/test-certificates.ts') },
  { find: /^@card-jwe\/testkit\/test-cards$/, replacement: here('./packages/testkit/src/test-cards.ts') },
  { find: /^@card-jwe\/testkit$/, replacement: here('./packages/testkit/src/index.ts') },
  { find: /^@card-jwe\/browser-info\/server$/, replacement: here('./packages/browser-info/src/server.ts') },
  { find: /^@card-jwe\/browser-info$/, replacement: here('./packages/browser-info/src/index.ts') },
  { find: /^@card-jwe\/service-client\/signing$/, replacement: here('./packages/service-client/src/signing.ts') },
  { find: /^@card-jwe\/service-client\/idempotency$/, replacement: here('./packages/service-client/src/idempotency.ts') },
  { find: /^@card-jwe\/service-client$/, replacement: here('./packages/service-client/src/index.ts') },
  { find: /^@card-jwe\/demo$/, replacement: here('./apps/demo/src/server/index.ts') },
  { find: /^@card-jwe\/sandbox$/, replacement: here('./apps/sandbox/src/index.ts') },
  { find: /^@card-jwe\/payment-validator$/, replacement: here('./packages/payment-validator/src/index.ts') },
]

/** Makes the test certificates once per run and hands them to Node and browser tests alike. */
const testCertificates = here('./packages/testkit/src/vitest/global-setup.ts')

const cardJweSuite = ['packages/card-jwe/test/**/*.test.ts']

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'card-jwe:node', include: cardJweSuite, environment: 'node', globalSetup: [testCertificates] },
      },
      {
        extends: true,
        test: {
          name: 'card-jwe:browser',
          include: cardJweSuite,
          globalSetup: [testCertificates],
          browser: { enabled: true, headless: true, screenshotFailures: false, instances: browserInstances() },
        },
      },
      {
        extends: true,
        test: { name: 'card-fields:node', include: ['packages/card-fields/test/**/*.test.ts'], exclude: [...configDefaults.exclude, '**/*.browser.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'card-fields:browser',
          include: ['packages/card-fields/test/**/*.test.ts'],
          browser: { enabled: true, headless: true, screenshotFailures: false, instances: browserInstances() },
        },
      },
      {
        extends: true,
        test: { name: 'checkout-actions:node', include: ['packages/checkout-actions/test/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'checkout-actions:browser',
          include: ['packages/checkout-actions/test/**/*.test.ts'],
          browser: { enabled: true, headless: true, screenshotFailures: false, instances: browserInstances() },
        },
      },
      {
        extends: true,
        test: { name: 'browser-info:node', include: ['packages/browser-info/test/**/*.node.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'browser-info:browser',
          include: ['packages/browser-info/test/**/*.browser.test.ts'],
          browser: { enabled: true, headless: true, screenshotFailures: false, instances: browserInstances(), commands: { setScreenSize } },
        },
      },
      {
        extends: true,
        test: { name: 'payment-validator', include: ['packages/payment-validator/test/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: { name: 'sandbox', include: ['apps/sandbox/test/**/*.test.ts'], environment: 'node', globalSetup: [testCertificates], testTimeout: 30_000 },
      },
      {
        extends: true,
        test: { name: 'testkit', include: ['packages/testkit/test/**/*.test.ts'], environment: 'node', globalSetup: [testCertificates] },
      },
      {
        extends: true,
        test: {
          name: 'cross-package:node',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/**/*.browser.test.ts', 'test/e2e/**', 'test/hardening/**'],
          environment: 'node',
          globalSetup: [testCertificates],
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        // Fuzzing and crash-under-load runs against the built apps (issue 8); FUZZ_RUNS and CRASH_* lengthen them.
        test: { name: 'hardening', include: ['test/hardening/**/*.test.ts'], environment: 'node', globalSetup: [testCertificates], testTimeout: 300_000, hookTimeout: 60_000 },
      },
      {
        extends: true,
        test: { name: 'demo:e2e', include: ['test/e2e/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 60_000 },
      },
      {
        extends: true,
        test: {
          name: 'cross-package:browser',
          include: ['test/**/*.browser.test.{ts,tsx}'],
          globalSetup: [testCertificates],
          testTimeout: 30_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            instances: browserInstances(),
            commands: { startCardPayment, sendDetails, answerChallenge, frameUrl, closeSandbox },
          },
        },
      },
    ],
  },
})

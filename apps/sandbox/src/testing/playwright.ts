/**
 * Playwright Test for a shop's own checkout: the testkit's `cardCapture` fixture plus a sandbox per
 * worker (free port, fresh data folder, ready-made shop and store, closed after the worker), whose
 * key opens the captured JWEs. Start the shop under test from `sandbox` in a worker fixture of
 * your own; see the README, "Testing your checkout".
 */
import { test as captureTest } from '@card-jwe/testkit/playwright'
import { startTestSandbox, type TestSandbox } from './start-test-sandbox.js'

/** The worker-scoped fixture this module adds. */
export interface SandboxWorkerFixtures {
  /** This worker's sandbox. */
  sandbox: TestSandbox
}

/** Playwright's `test` with `cardCapture` and a worker's `sandbox`. */
export const test = captureTest.extend<object, SandboxWorkerFixtures>({
  sandbox: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; none here
    async ({}, use) => {
      const sandbox = await startTestSandbox()
      await use(sandbox)
      await sandbox.close()
    },
    { scope: 'worker' },
  ],
  cardDecryptionKey: [async ({ sandbox }, use) => use(sandbox.privateKeyPem), { scope: 'worker' }],
})

export { answerChallenge, CHALLENGE_PAGE_TIMEOUT_MS } from './answer-challenge.js'
export type { TestSandbox } from './start-test-sandbox.js'
export { CardCaptureError, EXPECTED_CARD_JWE_HEADER, expect, findTestCard, TEST_CARDS, testCardExpiry } from '@card-jwe/testkit/playwright'
export type { CapturedCard, CardCapture, CardCaptureErrorCode, TestCard, ThreeDSecureFlow, TypedCard } from '@card-jwe/testkit/playwright'

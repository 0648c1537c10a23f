/**
 * Vitest global set-up: one sandbox per project of the run (each browser instance is one; free port, fresh data folder, ready-made shop and
 * store), its public parts provided to every test as `cardJweSandbox` (read them with
 * `testSandbox()` from `@card-jwe/sandbox/vitest`), closed when the run ends. Use it with
 * `globalSetup: ['@card-jwe/sandbox/vitest-global-setup']` and `sandboxCommands()` in the config.
 */
import type { TestProject } from 'vitest/node'
import { startTestSandbox, type TestSandbox } from './start-test-sandbox.js'
import { forgetRunSandbox, rememberRunSandbox } from './run-sandbox.js'
// The `cardJweSandbox` type.
import type {} from './vitest.js'

/** Starts the run's sandbox and provides it; the returned function closes it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const sandbox: TestSandbox = await startTestSandbox()
  rememberRunSandbox(sandbox)
  project.provide('cardJweSandbox', {
    baseUrl: sandbox.baseUrl,
    certificatePem: sandbox.certificatePem,
    fingerprint: sandbox.fingerprint,
    readyMadeShop: sandbox.readyMadeShop,
  })
  return async () => {
    forgetRunSandbox(sandbox)
    await sandbox.close()
  }
}

import type { TestSandbox } from './start-test-sandbox.js'

/**
 * Where the global set-up leaves the run's sandbox for the runner-side commands. A registry symbol
 * on globalThis, since Vitest may load the set-up and the config's commands as two module copies.
 */
export const RUN_SANDBOX = Symbol.for('@card-jwe/sandbox: the Vitest run sandbox')

/** The run's sandbox, or a clear error when the global set-up is missing. */
export function runSandbox(): TestSandbox {
  const sandbox = (globalThis as Record<symbol, unknown>)[RUN_SANDBOX] as TestSandbox | undefined
  if (!sandbox) throw new Error("no sandbox for this run: add '@card-jwe/sandbox/vitest-global-setup' to the config's globalSetup")
  return sandbox
}

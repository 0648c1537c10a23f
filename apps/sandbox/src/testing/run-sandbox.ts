import type { TestSandbox } from './start-test-sandbox.js'

/**
 * Where the global set-ups leave their sandboxes for the runner-side commands, by base URL: each
 * browser instance is a project with its own set-up and sandbox. A registry symbol on globalThis,
 * since Vitest may load the set-up and the config's commands as two module copies.
 */
const RUN_SANDBOXES = Symbol.for('@card-jwe/sandbox: the Vitest run sandboxes')

function registry(): Map<string, TestSandbox> {
  const global = globalThis as Record<symbol, Map<string, TestSandbox> | undefined>
  global[RUN_SANDBOXES] ??= new Map()
  return global[RUN_SANDBOXES]
}

/** Keeps a set-up's sandbox until `forgetRunSandbox`. */
export function rememberRunSandbox(sandbox: TestSandbox): void {
  registry().set(sandbox.baseUrl, sandbox)
}

/** Drops it when its run ends. */
export function forgetRunSandbox(sandbox: TestSandbox): void {
  registry().delete(sandbox.baseUrl)
}

/** The sandbox the set-up gave a project (by the base URL it provided), or a clear error. */
export function runSandbox(baseUrl: string | undefined): TestSandbox {
  const sandbox = baseUrl === undefined ? undefined : registry().get(baseUrl)
  if (!sandbox) throw new Error("no sandbox for this project: add '@card-jwe/sandbox/vitest-global-setup' to its globalSetup")
  return sandbox
}

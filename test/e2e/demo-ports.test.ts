/**
 * `pnpm demo` with a port already taken (a demo or a sandbox still running): one plain line that
 * names the port and the variable that moves it, exit 1, and no stack trace.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { holdPort } from '../support/free-port.ts'

const DEMO_MAIN = resolve('apps/demo/dist/server/main.js')
let held: Awaited<ReturnType<typeof holdPort>>
beforeAll(async () => {
  held = await holdPort()
})
afterAll(() => held.release())

/** What the demo says when `port` (`variable`'s, `what` it is for) is taken. */
const takenLine = (port: number, what: string, variable: string) =>
  `demo: port ${port} (${what}) is in use: stop what holds it, or set ${variable} to another port (0 for any free one)\n`

/** The demo's exit code and what it wrote to stderr, with `env` on top of this process's. */
async function demoWith(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'demo-ports-'))
  // The embedded sandbox, whatever this process was pointed at.
  const { SERVICE_BASE_URL: _, NODE_OPTIONS: __, ...inherited } = process.env
  // A demo that started after all runs until killed: killed at 20 s (exit code null), the test fails on it.
  const child = spawn(process.execPath, [DEMO_MAIN], { env: { ...inherited, DEMO_DATA_DIR: dataDir, ...env }, timeout: 20_000 })
  try {
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    const code = await new Promise<number | null>((done) => child.on('exit', done))
    return { code, stderr }
  } finally {
    child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** Exit 1, the line, and no stack trace (a warning of Node's beside it would not fail this). */
function saidPlainly(answer: { code: number | null; stderr: string }, line: string): void {
  expect(answer.code).toBe(1)
  expect(answer.stderr).toContain(line)
  expect(answer.stderr).not.toMatch(/\n\s+at /)
}

it('the sandbox’s port taken: the demo says which port and SANDBOX_PORT, exit 1, no stack', async () => {
  saidPlainly(
    await demoWith({ SANDBOX_PORT: String(held.port), SHOP_PORT: '0' }),
    takenLine(held.port, 'the embedded sandbox', 'SANDBOX_PORT'),
  )
})

it('the shop’s port taken: the demo says which port and SHOP_PORT, exit 1, no stack', async () => {
  saidPlainly(await demoWith({ SANDBOX_PORT: '0', SHOP_PORT: String(held.port) }), takenLine(held.port, 'the shop', 'SHOP_PORT'))
})

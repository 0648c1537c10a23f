import { spawn } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { freshDataDir } from './support/sandbox-fixture.js'

// The command as a shop developer runs it: the built file (pnpm build), in a process of its own.
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))

/**
 * The command on a free port and a fresh data folder (removed afterwards), sent `signal` once it
 * listens: what it printed on each stream, its exit code, and the folder it was given.
 */
async function runUntil(signal: NodeJS.Signals, args: readonly string[] = []) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is not built: run pnpm build first`)
  const dataDir = freshDataDir()
  const child = spawn(process.execPath, [CLI, '--port', '0', '--data-dir', dataDir, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk))
  child.stderr.on('data', (chunk: Buffer) => (err += chunk))
  // 'close', not 'exit': the streams' last lines have arrived by then.
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
  // A command that hangs is ended, so the test fails on its output, not on vitest's timeout.
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000)
  try {
    const deadline = Date.now() + 15_000
    while (!/listening at|"baseUrl"/.test(out) && child.exitCode === null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50))
    expect(out, `it did not start: ${err}`).toMatch(/listening at|"baseUrl"/)
    child.kill(signal)
    return { code: await closed, out, err, dataDir }
  } finally {
    clearTimeout(killer)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  }
}

it('says on Ctrl-C that it stopped and where its data stays, then exits 0', async () => {
  const { code, out, dataDir } = await runUntil('SIGINT')
  expect(code).toBe(0)
  expect(out).toContain(`[sandbox] stopped; its shops, payments and certificate stay in ${dataDir}`)
}, 30_000)

it('with --json says it on standard error: standard output stays the one JSON line', async () => {
  const { code, out, err } = await runUntil('SIGTERM', ['--json'])
  expect(code).toBe(0)
  expect(out.trim().split('\n')).toHaveLength(1)
  expect(JSON.parse(out)).toHaveProperty('baseUrl')
  expect(err).toContain('[sandbox] stopped;')
}, 30_000)

import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { freshDataDir } from './support/sandbox-fixture.js'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))

/** The command on a free port until `signal`: what it printed on each stream, and its exit code. */
async function runUntil(signal: NodeJS.Signals, args: readonly string[]) {
  const child = spawn(process.execPath, [CLI, '--port', '0', ...args])
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk))
  child.stderr.on('data', (chunk: Buffer) => (err += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  try {
    const deadline = Date.now() + 20_000
    while (!/listening at|"baseUrl"/.test(out) && child.exitCode === null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50))
    child.kill(signal)
    return { code: await exited, out, err }
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
  }
}

it('says on Ctrl-C that it stopped and where its data stays, then exits 0', async () => {
  const dataDir = freshDataDir()
  try {
    const { code, out } = await runUntil('SIGINT', ['--data-dir', dataDir])
    expect(code).toBe(0)
    expect(out).toContain(`[sandbox] stopped; its shops, payments and certificate stay in ${dataDir}`)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 30_000)

it('with --json says it on standard error: standard output stays the one JSON line', async () => {
  const dataDir = freshDataDir()
  try {
    const { code, out, err } = await runUntil('SIGTERM', ['--data-dir', dataDir, '--json'])
    expect(code).toBe(0)
    expect(out.trim().split('\n')).toHaveLength(1)
    expect(JSON.parse(out)).toHaveProperty('baseUrl')
    expect(err).toContain('[sandbox] stopped;')
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 30_000)

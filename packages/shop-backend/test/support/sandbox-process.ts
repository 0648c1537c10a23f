import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serverRuntime } from '../../../../test/support/runtime.js'

const SANDBOX_CLI = fileURLToPath(new URL('../../../../apps/sandbox/dist/cli.js', import.meta.url))
/** A busy machine starts the sandbox in a few seconds; a minute means it never will. */
const START_TIMEOUT_MS = 60_000
/** What SIGTERM gets before SIGKILL, as postgres-process.mjs gives its server. */
const STOP_GRACE_MS = 10_000

/** Node for the sandbox (neither Deno nor Bun loads better-sqlite3); under `bun --bun`, `node` on the PATH is Bun. */
function nodeBinary(): string {
  if (serverRuntime() === 'node') return process.execPath
  const node = process.env.CARD_JWE_NODE
  if (!node) throw new Error(`CARD_JWE_NODE: the path of a Node binary, for the sandbox (scripts/run-tests.mjs sets it)`)
  return node
}

/** Everything the sandbox printed up to its last start-up line; rejects if it exits, fails to spawn or takes too long. */
function startUpOutput(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = ''
    const fail = (error: Error) => {
      clearTimeout(timer)
      reject(error)
    }
    const timer = setTimeout(() => fail(new Error(`the sandbox did not start in ${START_TIMEOUT_MS} ms: ${output}`)), START_TIMEOUT_MS)
    child.stdout!.setEncoding('utf8')
    child.stdout!.on('data', (chunk: string) => {
      output += chunk
      if (!/^database /m.test(output)) return
      clearTimeout(timer)
      resolve(output)
    })
    child.once('exit', (code) => fail(new Error(`the sandbox exited with ${code} before it listened: ${output}`)))
    child.once('error', fail)
  })
}

export interface SandboxProcess {
  readonly baseUrl: string
  readonly certificatePem: string
  /** All it printed so far (a line a request): the service's side of a failed test. */
  output(): string
  close(): Promise<void>
}

/** The sandbox's own command (`card-jwe-sandbox`, built) in a Node process, on a free loopback port. */
export async function startSandboxProcess(): Promise<SandboxProcess> {
  if (!existsSync(SANDBOX_CLI)) throw new Error(`${SANDBOX_CLI} is not built: run pnpm build first`)
  const node = nodeBinary()
  const dataDir = await mkdtemp(join(tmpdir(), 'shop-backend-runtime-sandbox-'))
  const child = spawn(node, [SANDBOX_CLI, '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] })
  const ended = new Promise<void>((resolve) => {
    child.once('exit', () => resolve())
    child.once('error', () => resolve()) // never started: no exit follows
  })
  async function close(): Promise<void> {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
      await ended
      clearTimeout(kill)
    }
    await rm(dataDir, { recursive: true, force: true })
  }
  let output: string
  let certificatePem: string
  try {
    output = await startUpOutput(child)
    certificatePem = await readFile(/^certificate (\S+)$/m.exec(output)![1]!, 'utf8')
  } catch (error) {
    await close()
    throw error
  }
  child.stdout!.on('data', (chunk: string) => {
    output += chunk
  })
  return { baseUrl: /^sandbox listening at (\S+)$/m.exec(output)![1]!, certificatePem, output: () => output, close }
}

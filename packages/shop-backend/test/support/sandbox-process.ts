import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { RUNTIME } from './serve-here.js'

const SANDBOX_CLI = fileURLToPath(new URL('../../../../apps/sandbox/dist/cli.js', import.meta.url))

/**
 * Node, for the sandbox (its database is better-sqlite3, which neither Deno nor Bun loads): this
 * process's own binary in Node, else CARD_JWE_NODE (scripts/run-tests.mjs sets it; under `bun
 * --bun`, `node` on the PATH is Bun).
 */
function nodeBinary(): string {
  if (RUNTIME === 'node') return process.execPath
  const node = process.env.CARD_JWE_NODE
  if (!node) throw new Error(`CARD_JWE_NODE: the path of a Node binary, for the sandbox (${RUNTIME} cannot run it)`)
  return node
}

export interface SandboxProcess {
  readonly baseUrl: string
  readonly certificatePem: string
  close(): Promise<void>
}

/** The sandbox's own command (`card-jwe-sandbox`, built) in a Node process, on a free loopback port. */
export async function startSandboxProcess(): Promise<SandboxProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'shop-backend-runtime-sandbox-'))
  const child = spawn(nodeBinary(), [SANDBOX_CLI, '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let output = ''
  child.stdout.setEncoding('utf8')
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        output += chunk
        if (/^database /m.test(output)) resolve()
      })
      child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code} before it listened: ${output}`)))
    })
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }
  const baseUrl = /^sandbox listening at (\S+)$/m.exec(output)![1]!
  const certificatePem = await readFile(/^certificate (\S+)$/m.exec(output)![1]!, 'utf8')
  return {
    baseUrl,
    certificatePem,
    async close() {
      child.kill('SIGTERM')
      await exited
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

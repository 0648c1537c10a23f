/** The publish tests' child processes: their output, their exit, and the sandbox's command. */
import { spawn, type ChildProcess } from 'node:child_process'
import { get } from 'node:http'
import { join } from 'node:path'

/**
 * A GET on a connection of its own. After the synchronous Playwright run, a kept-alive socket that
 * the server closed meanwhile can still look usable to fetch's pool (its close not yet processed).
 */
export function freshGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    }).on('error', reject)
  })
}

/** Waits for a line of a child's output; rejects if the child exits first or after 30 s. */
export function waitFor(child: ChildProcess, pattern: RegExp): Promise<{ match: RegExpExecArray; output: string }> {
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}:\n${output}`)), 30_000)
    const onData = (chunk: Buffer) => {
      output += chunk
      const match = pattern.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve({ match, output })
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk))
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`exited (${code}) before ${pattern}:\n${output}`))
    })
  })
}

/** The exit code of a child and all it wrote; rejects if it still runs after 30 s. */
export function exitOf(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk))
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk))
    const timer = setTimeout(() => reject(new Error(`still running after 30 s:\n${output}`)), 30_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

/** The sandbox's command as a shop runs it, and what it printed. */
export interface SandboxCommand {
  readonly child: ChildProcess
  readonly url: string
  readonly certificatePath: string
  /** The ready-made shop it printed. */
  readonly shop: { readonly shopId: string; readonly serviceSecret: string; readonly storeId: string }
}

/** `card-jwe-sandbox --port 0 --ready-made-store` from the project in `projectDir`, on `dataDir`. */
export async function startSandboxCommand(projectDir: string, dataDir: string): Promise<SandboxCommand> {
  const child = spawn(
    join(projectDir, 'node_modules/.bin/card-jwe-sandbox'),
    ['--port', '0', '--data-dir', dataDir, '--ready-made-store'],
    {
      cwd: projectDir,
    },
  )
  const { output } = await waitFor(child, /^store id .+$/m)
  const printed = (label: string) => new RegExp(`^${label} (.+)$`, 'm').exec(output)![1]!
  return {
    child,
    url: printed('sandbox listening at'),
    certificatePath: printed('certificate'),
    shop: { shopId: printed('shop id'), serviceSecret: printed('service secret'), storeId: printed('store id') },
  }
}

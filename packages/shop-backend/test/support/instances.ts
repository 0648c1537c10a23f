/**
 * Shop instances as real processes: `node test/multi-instance/shop-instance.mjs` on the built
 * package (`tsc -b packages/shop-backend` first), each with its ledger in PostgreSQL (or one SQLite file).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { TestSandbox } from '@card-jwe/sandbox'

const repo = fileURLToPath(new URL('../../../../', import.meta.url))
const script = fileURLToPath(new URL('../multi-instance/shop-instance.mjs', import.meta.url))

export interface InstanceOptions {
  /** The ledger's PostgreSQL database, unless `sqlitePath` names a SQLite file instead. */
  readonly databaseUrl?: string
  readonly sqlitePath?: string
  /** The service's base URL as this instance sees it (a proxy's). */
  readonly serviceUrl: string
  /** The secret key, base64. */
  readonly secretKey: string
  /** Its ready-made shop is the one every instance is connected as. */
  readonly sandbox: TestSandbox
  /** The poller's interval and lease; none: no poller. */
  readonly poll?: { readonly intervalMs: number; readonly leaseMs: number }
  readonly timeouts?: { readonly deadlineMs: number; readonly attemptTimeoutMs: number }
  /** The back end's `repeatWindowMs` (default its own). */
  readonly repeatWindowMs?: number
}

export interface InstanceProcess {
  readonly name: string
  readonly child: ChildProcess
  readonly port: number
  /** Its poller's lease holder id. */
  readonly holder: string
  /** onOrderChange deliveries it made, in order. */
  readonly changes: Array<{ orderId: string; state: string; attempt: number }>
  /** What it wrote to stderr: its log. */
  stderr(): string
  post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }>
  /** As `post`, with the answer's `retry-after`. */
  request(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown>; retryAfter: string | null }>
  /** SIGKILL, resolved once it has exited. */
  kill(): Promise<void>
}

export async function spawnInstance(name: string, options: InstanceOptions): Promise<InstanceProcess> {
  const readyMade = options.sandbox.readyMadeShop
  const timeouts = options.timeouts ?? { deadlineMs: 2_000, attemptTimeoutMs: 1_000 }
  const child = spawn(process.execPath, [script], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...(options.sqlitePath ? { SQLITE_PATH: options.sqlitePath } : { DATABASE_URL: options.databaseUrl }),
      SERVICE_URL: options.serviceUrl,
      SECRET_KEY: options.secretKey,
      CERTIFICATE_PEM: options.sandbox.certificatePem,
      CREDENTIALS: JSON.stringify({ shopId: readyMade.shopId, serviceSecret: readyMade.serviceSecret, storeId: readyMade.storeId }),
      DEADLINE_MS: String(timeouts.deadlineMs),
      ATTEMPT_TIMEOUT_MS: String(timeouts.attemptTimeoutMs),
      ...(options.repeatWindowMs === undefined ? {} : { REPEAT_WINDOW_MS: String(options.repeatWindowMs) }),
      ...(options.poll ? { POLL_INTERVAL_MS: String(options.poll.intervalMs), LEASE_MS: String(options.poll.leaseMs) } : {}),
    },
  })
  const changes: InstanceProcess['changes'] = []
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const ready = new Promise<{ port: number; holder: string }>((resolve, reject) => {
    let buffered = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString()
      for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
        const line = buffered.slice(0, at)
        buffered = buffered.slice(at + 1)
        if (line.startsWith('READY ')) {
          const [, port, holder] = line.split(' ')
          resolve({ port: Number(port), holder: holder! })
        } else if (line.startsWith('CHANGE ')) changes.push(JSON.parse(line.slice(7)))
      }
    })
    child.once('exit', (code) => reject(new Error(`instance ${name} exited (${code}) before it was ready:\n${stderr}`)))
  })
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
  }
  const request = async (path: string, body: unknown) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'vitest' },
      body: JSON.stringify(body),
      // An instance answers within its service deadline; this only bounds a test against a wedged one.
      signal: AbortSignal.timeout(30_000),
    })
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      retryAfter: response.headers.get('retry-after'),
    }
  }
  const { port, holder } = await ready.catch(async (error: unknown) => {
    await kill()
    throw error
  })
  return {
    name,
    child,
    port,
    holder,
    changes,
    stderr: () => stderr,
    request,
    async post(path, body) {
      const { status, body: answer } = await request(path, body)
      return { status, body: answer }
    },
    kill,
  }
}

/** Resolves with `check`'s first value that is neither undefined nor false; rejects after `timeoutMs`. */
export async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

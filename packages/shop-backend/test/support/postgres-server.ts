/**
 * A real PostgreSQL server for the shop back end's tests (vitest `globalSetup` of the `shop-backend`
 * project): Debian's `postgresql` package (`scripts/setup.sh --tests` installs it), started once per
 * run in a temporary data folder, as an unprivileged user (`nobody` when the run is root: PostgreSQL
 * refuses root), on a free loopback port, `fsync=off`. Each test file or test makes its own
 * database (`freshDatabase`). Stopped and its folder removed at the end. No mock, no stand-in.
 * Missing PostgreSQL: its tests are skipped with the reason, except with CI=true, where the run fails.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'

export interface PostgresServerInfo {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the admin connection (trust auth, loopback only). */
  readonly adminUrl: string
  /** `SELECT version()` of the running server. */
  readonly version: string
  /** Why there is no server (not installed); the PostgreSQL tests skip with it. */
  readonly missing?: string
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresServerInfo
  }
}

/** The newest `/usr/lib/postgresql/<major>/bin` that holds a server. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const majors = readdirSync(root)
    .filter((major) => existsSync(join(root, major, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a))
  return majors[0] === undefined ? undefined : join(root, majors[0], 'bin')
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** Runs as `nobody` when this process is root (PostgreSQL refuses root), else as this user. */
function asServerUser(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args]
  return ['setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--reset-env', '--', command, ...args]]
}

async function waitUntilReady(adminUrl: string, server: ChildProcess, log: () => string): Promise<string> {
  const deadline = Date.now() + 30_000
  for (;;) {
    if (server.exitCode !== null) throw new Error(`postgres exited (${server.exitCode}):\n${log()}`)
    const client = new pg.Client({ connectionString: adminUrl })
    try {
      await client.connect()
      const { rows } = await client.query<{ version: string }>('SELECT version()')
      return rows[0]!.version
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections in 30 s (${(error as Error).message}):\n${log()}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    } finally {
      await client.end().catch(() => {})
    }
  }
}

export default async function startPostgresServer(project: TestProject): Promise<() => Promise<void>> {
  const bin = postgresBinDir()
  if (!bin) {
    const missing = 'PostgreSQL is not installed (/usr/lib/postgresql/*/bin/postgres); run scripts/setup.sh --tests'
    if (process.env.CI === 'true') throw new Error(`PostgreSQL missing in CI: ${missing}`)
    console.warn(`shop-backend: PostgreSQL tests skipped: ${missing}`)
    project.provide('postgres', { adminUrl: '', version: '', missing })
    return async () => {}
  }
  const root = mkdtempSync(join(tmpdir(), 'shop-backend-pg-'))
  chmodSync(root, 0o755)
  const data = join(root, 'data')
  const sockets = join(root, 'sockets')
  mkdirSync(data, { mode: 0o700 })
  mkdirSync(sockets, { mode: 0o755 })
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'nobody']).toString().trim())
    const gid = Number(execFileSync('id', ['-g', 'nobody']).toString().trim())
    chownSync(data, uid, gid)
    chownSync(sockets, uid, gid)
  }
  const [initCommand, initArgs] = asServerUser(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--no-sync',
    '--no-instructions',
  ])
  execFileSync(initCommand, initArgs, { stdio: 'pipe', cwd: root })
  const port = await freePort()
  const [command, args] = asServerUser(join(bin, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    sockets,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
  ])
  let output = ''
  const server = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  const collect = (chunk: Buffer) => {
    output += chunk.toString()
  }
  server.stdout?.on('data', collect)
  server.stderr?.on('data', collect)
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`
  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve))
      server.kill('SIGINT') // fast shutdown
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
      if (server.exitCode === null) server.kill('SIGKILL')
    }
    rmSync(root, { recursive: true, force: true })
  }
  try {
    const version = await waitUntilReady(adminUrl, server, () => output)
    console.log(`shop-backend: PostgreSQL tests run against ${version} (${bin}, loopback port ${port})`)
    project.provide('postgres', { adminUrl, version })
  } catch (error) {
    await stop()
    throw error
  }
  return stop
}

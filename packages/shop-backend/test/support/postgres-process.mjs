/**
 * Starts and stops a real PostgreSQL server from Debian's `postgresql` package: a temporary data
 * folder, an unprivileged user (`nobody` when this process is root: PostgreSQL refuses root), a free
 * loopback port, trust auth on loopback only. Plain JavaScript so that both the tests' globalSetup
 * (`postgres-server.ts`) and the bench (`test/bench/store-factories.mjs`, plain `node`) use it.
 */
import { execFileSync, spawn } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

/** The newest `/usr/lib/postgresql/<major>/bin` that holds a server, or undefined. */
export function postgresBinDir() {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const majors = readdirSync(root)
    .filter((major) => existsSync(join(root, major, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a))
  return majors[0] === undefined ? undefined : join(root, majors[0], 'bin')
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Runs as `nobody` when this process is root (PostgreSQL refuses root), else as this user. */
function asServerUser(command, args) {
  if (process.getuid?.() !== 0) return [command, args]
  return ['setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--reset-env', '--', command, ...args]]
}

async function waitUntilReady(adminUrl, server, log) {
  const deadline = Date.now() + 30_000
  for (;;) {
    if (server.exitCode !== null) throw new Error(`postgres exited (${server.exitCode}):\n${log()}`)
    const client = new pg.Client({ connectionString: adminUrl })
    try {
      await client.connect()
      const { rows } = await client.query('SELECT version()')
      return rows[0].version
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections in 30 s (${error.message}):\n${log()}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    } finally {
      await client.end().catch(() => {})
    }
  }
}

/**
 * Starts a server in `bin`. `durable: false` (the tests) runs with fsync, synchronous_commit and
 * full_page_writes off; `durable: true` (the bench) keeps PostgreSQL's defaults: a commit is
 * fsync'd before it returns. Resolves to `{ adminUrl, version, port, stop(), halt(signal), resume() }`.
 */
export async function startPostgres({ bin, durable }) {
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
  const initArgs = ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync', '--no-instructions']
  const [initCommand, initArgv] = asServerUser(join(bin, 'initdb'), initArgs)
  execFileSync(initCommand, initArgv, { stdio: 'pipe', cwd: root })
  const port = await freePort()
  const settings = ['listen_addresses=127.0.0.1', 'max_connections=200']
  if (!durable) settings.push('fsync=off', 'synchronous_commit=off', 'full_page_writes=off')
  const [command, args] = asServerUser(join(bin, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    sockets,
    ...settings.flatMap((s) => ['-c', s]),
  ])
  let output = ''
  const collect = (chunk) => {
    output += chunk.toString()
  }
  const spawnServer = () => {
    const started = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    started.stdout?.on('data', collect)
    started.stderr?.on('data', collect)
    return started
  }
  let server = spawnServer()
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`
  /** Stops the server: SIGINT is PostgreSQL's fast shutdown, SIGQUIT its immediate one (a crash, recovered at the next start). */
  const halt = async (signal = 'SIGINT') => {
    if (server.exitCode !== null || server.signalCode !== null) return
    const exited = new Promise((resolve) => server.once('exit', resolve))
    server.kill(signal)
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGKILL')
      await exited
    }
  }
  const stop = async () => {
    await halt('SIGINT')
    rmSync(root, { recursive: true, force: true })
  }
  /** Starts the server again on the same data folder and port once `halt` has stopped it. */
  const resume = async () => {
    server = spawnServer()
    await waitUntilReady(adminUrl, server, () => output)
  }
  try {
    const version = await waitUntilReady(adminUrl, server, () => output)
    return { adminUrl, version, port, stop, halt, resume }
  } catch (error) {
    await stop()
    throw error
  }
}

/** Creates database `name` on the server at `adminUrl`; resolves to its connection string. */
export async function createDatabase(adminUrl, name) {
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE "${name}"`)
  } finally {
    await admin.end()
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

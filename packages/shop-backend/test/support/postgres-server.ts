/**
 * A real PostgreSQL server for the shop back end's tests (vitest `globalSetup` of the `shop-backend`
 * projects): Debian's `postgresql` package (`scripts/setup.sh --tests` installs it), started once per
 * run for every project that names this file, in a temporary data folder, as an unprivileged user
 * (`nobody` when the run is root: PostgreSQL refuses root), on a free loopback port, `fsync=off`.
 * Each test file or test makes its own database (`freshDatabase`). Stopped and its folder removed at the end. No mock, no stand-in.
 * Missing PostgreSQL: its tests are skipped with the reason, except with CI=true, where the run fails.
 */
import type { TestProject } from 'vitest/node'
import { postgresBinDir, startPostgres } from './postgres-process.mjs'

export { postgresBinDir }

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

interface SharedServer {
  readonly started: ReturnType<typeof startPostgres>
  users: number
}
/**
 * The run's server, shared by the projects that use this file (started by the first, stopped after
 * the last): on globalThis, as Vitest loads a globalSetup file afresh for each project.
 */
const SHARED = Symbol.for('card-jwe.test.postgres-server')
const holder = globalThis as { [SHARED]?: SharedServer }

export default async function startPostgresServer(project: TestProject): Promise<() => Promise<void>> {
  const bin = postgresBinDir()
  if (!bin) {
    const missing = 'PostgreSQL is not installed (/usr/lib/postgresql/*/bin/postgres); run scripts/setup.sh --tests'
    if (process.env.CI === 'true') throw new Error(`PostgreSQL missing in CI: ${missing}`)
    console.warn(`shop-backend: PostgreSQL tests skipped: ${missing}`)
    project.provide('postgres', { adminUrl: '', version: '', missing })
    return async () => {}
  }
  const first = holder[SHARED] === undefined
  holder[SHARED] ??= { started: startPostgres({ bin, durable: false }), users: 0 } // fsync, synchronous_commit, full_page_writes off
  const run = holder[SHARED]
  run.users++
  const server = await run.started
  if (first) console.log(`shop-backend: PostgreSQL tests run against ${server.version} (${bin}, loopback port ${server.port})`)
  project.provide('postgres', { adminUrl: server.adminUrl, version: server.version })
  return async () => {
    if (--run.users > 0) return
    if (holder[SHARED] === run) delete holder[SHARED]
    await server.stop()
  }
}

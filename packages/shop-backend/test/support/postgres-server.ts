/**
 * A real PostgreSQL server for the shop back end's tests (vitest `globalSetup` of the `shop-backend`
 * project): Debian's `postgresql` package (`scripts/setup.sh --tests` installs it), started once per
 * run in a temporary data folder, as an unprivileged user (`nobody` when the run is root: PostgreSQL
 * refuses root), on a free loopback port, `fsync=off`. Each test file or test makes its own
 * database (`freshDatabase`). Stopped and its folder removed at the end. No mock, no stand-in.
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

export default async function startPostgresServer(project: TestProject): Promise<() => Promise<void>> {
  const bin = postgresBinDir()
  if (!bin) {
    const missing = 'PostgreSQL is not installed (/usr/lib/postgresql/*/bin/postgres); run scripts/setup.sh --tests'
    if (process.env.CI === 'true') throw new Error(`PostgreSQL missing in CI: ${missing}`)
    console.warn(`shop-backend: PostgreSQL tests skipped: ${missing}`)
    project.provide('postgres', { adminUrl: '', version: '', missing })
    return async () => {}
  }
  const server = await startPostgres({ bin, durable: false }) // fsync, synchronous_commit, full_page_writes off
  console.log(`shop-backend: PostgreSQL tests run against ${server.version} (${bin}, loopback port ${server.port})`)
  project.provide('postgres', { adminUrl: server.adminUrl, version: server.version })
  return server.stop
}

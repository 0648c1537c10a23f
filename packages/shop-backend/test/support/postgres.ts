import pg from 'pg'
import { inject } from 'vitest'

/** The run's PostgreSQL server (test/support/postgres-server.ts), or why there is none. */
export const postgres = inject('postgres')

let databases = 0

/** A new empty database on the run's server; its connection string, and how to drop it. */
export async function freshDatabase(label = 'shop'): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${label}_${process.pid}_${++databases}_${Math.random().toString(36).slice(2, 8)}`
  const admin = new pg.Client({ connectionString: postgres.adminUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE "${name}"`)
  } finally {
    await admin.end()
  }
  const url = new URL(postgres.adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: postgres.adminUrl })
      await client.connect()
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      } finally {
        await client.end()
      }
    },
  }
}

/**
 * A pool of the test's own on `url`. Its error listener is there because the cleanup drops the
 * database WITH (FORCE), which can terminate a client that `end()` is still closing; pg reports
 * that as an `error` event, and an error event nobody listens to is an uncaught exception.
 */
export function testPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max })
  pool.on('error', () => {})
  return pool
}

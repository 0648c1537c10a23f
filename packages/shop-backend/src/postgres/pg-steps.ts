/** How the PostgreSQL store runs the shared rules: on the pool, or on one transaction's connection. */
import type pg from 'pg'
import type { LedgerDriver } from '../store/sql-ledger-store.js'
import { type LedgerRule, type LedgerSteps, runAsync } from '../store/steps.js'
import { casAttempt } from './attempt-updates.js'
import { prepared } from './prepared.js'
import { SQL } from './sql.js'

/** The ledger's steps on `db`: each statement prepared once a connection (see prepared.ts). */
export function pgSteps(db: pg.Pool | pg.PoolClient): LedgerSteps {
  const query = (text: string, values: readonly unknown[] = []) => db.query(prepared(text, values))
  return {
    sql: SQL,
    run: async (text, values) => (await query(text, values)).rowCount ?? 0,
    get: async <Row>(text: string, values?: readonly unknown[]) => (await query(text, values)).rows[0] as Row | undefined,
    all: async <Row>(text: string, values?: readonly unknown[]) => (await query(text, values)).rows as Row[],
    compareAndSet: (update) => casAttempt(db, update),
  }
}

/** Runs `work` in one transaction on `client`: committed, or rolled back when it throws. */
export async function transaction<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN')
  try {
    const result = await work()
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}

/** Runs `work` in one transaction on one connection of the pool. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    return await transaction(client, () => work(client))
  } finally {
    client.release()
  }
}

/** One statement runs on the pool as its own transaction; several share a connection and a transaction. */
export function pgDriver(pool: pg.Pool): LedgerDriver {
  const onPool = pgSteps(pool)
  const alone = <T>(rule: LedgerRule<T>): Promise<T> => runAsync(rule, onPool)
  return {
    read: alone,
    writeOne: alone,
    // ON CONFLICT DO NOTHING: a row there already is a count of 0, never an error.
    insert: alone,
    write: (rule) => inTransaction(pool, (client) => runAsync(rule, pgSteps(client))),
  }
}

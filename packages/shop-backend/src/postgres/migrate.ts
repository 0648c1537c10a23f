import type pg from 'pg'
import type { Migration } from '../store/migration-plan.js'
import { migrate, type MigrationSteps } from '../store/migrate.js'
import { runAsync } from '../store/steps.js'
import { transaction } from './pg-steps.js'

/** The advisory lock the migrations run under: two instances starting at once apply each migration once. */
export const MIGRATION_LOCK_KEY = 7_263_616_264 // "card" in a bigint, nothing else uses it

function migrationSteps(client: pg.PoolClient): MigrationSteps {
  const steps: MigrationSteps = {
    exec: (script) => client.query(script),
    get: async <Row>(text: string, values: readonly unknown[] = []) => (await client.query(text, [...values])).rows[0] as Row | undefined,
    run: (text, values = []) => client.query(text, [...values]),
    transaction: (rule) => transaction(client, () => runAsync(rule, steps)),
  }
  return steps
}

/** The migration runner on one connection, under a session advisory lock: instances starting together wait for each other. */
export async function migratePostgres(pool: pg.Pool, migrations: readonly Migration[]): Promise<number> {
  const client = await pool.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
    try {
      return await runAsync(migrate(migrations), migrationSteps(client))
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {})
    }
  } finally {
    client.release()
  }
}

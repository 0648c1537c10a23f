/**
 * The migration runner, once for both SQL stores: which steps a database lacks (`migrationPlan`),
 * each applied in its own transaction with its `schema_migrations` row. A dialect only executes.
 */
import { type Migration, migrationPlan } from './migration-plan.js'
import { ask, type Maybe, type Rule } from './steps.js'

/** The table that records each applied step (the same text on SQLite and PostgreSQL). */
export const SCHEMA_MIGRATIONS_TABLE =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)'

/** What the runner asks of a dialect, on the one connection it migrates on. */
export interface MigrationSteps {
  /** Runs a script of one or more statements, without values. */
  exec(script: string): Maybe<unknown>
  /** The first row of a statement (`$1`, `$2`... are `values` in order). */
  get<Row>(text: string, values?: readonly unknown[]): Maybe<Row | undefined>
  /** Runs a statement. */
  run(text: string, values?: readonly unknown[]): Maybe<unknown>
  /** Runs `rule` in one transaction: all of it or, when it throws, none. */
  transaction<T>(rule: Rule<T, MigrationSteps>): Maybe<T>
}

const on = <T>(call: (steps: MigrationSteps) => Maybe<T>) => ask<MigrationSteps, T>(call)

function* apply(migration: Migration): Rule<void, MigrationSteps> {
  yield* on((t) => t.exec(migration.sql))
  const values = [migration.version, migration.name, new Date().toISOString()]
  yield* on((t) => t.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', values))
}

/** Applies the migrations the database lacks; the version it is at afterwards. */
export function* migrate(migrations: readonly Migration[]): Rule<number, MigrationSteps> {
  yield* on((t) => t.exec(SCHEMA_MIGRATIONS_TABLE))
  const current = (yield* on((t) => t.get<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations')))?.v ?? 0
  const plan = migrationPlan(current, migrations)
  for (const migration of plan.pending) yield* on((t) => t.transaction(apply(migration)))
  return plan.version
}

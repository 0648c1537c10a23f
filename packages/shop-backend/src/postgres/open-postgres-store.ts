import pg from 'pg'
import { LeaseLostError, type LedgerStore, type ModificationPatch, type PollBatch, type PollBatchResult } from '../store.js'
import { type Migration, migrationPlan, SCHEMA_MIGRATIONS_TABLE } from '../lib/migration-plan.js'
import { casAttempt } from './attempt-updates.js'
import { createLedgerWrites } from './ledger-writes.js'
import { POSTGRES_MIGRATIONS } from './migrations.js'
import { prepared } from './prepared.js'
import { errorCodeOf } from './statement-groups.js'
import {
  attemptOf,
  type AttemptRow,
  type LeaseRow,
  leaseOf,
  modificationOf,
  type ModificationRow,
  outboxEntryOf,
  type OutboxRow,
  problemOf,
  type ProblemRow,
} from '../lib/ledger-rows.js'

/** Options of {@link openPostgresStore}: the shop's own pool, or a connection string (the store makes and ends its pool). */
export type PostgresStoreOptions = (
  | {
      /** The shop's pool: the store runs on it and leaves it open at close. */
      readonly pool: pg.Pool
      /** Not with `pool`. */
      readonly connectionString?: never
    }
  | {
      /** `postgres://user:password@host:port/database`: the store makes its pool and ends it at close. */
      readonly connectionString: string
      /** Connections in that pool; default 10. */
      readonly max?: number
      /** Not with `connectionString`. */
      readonly pool?: never
    }
) & {
  /**
   * Where the store tells what it got over: a group statement that failed and was sent again one
   * write at a time; an idle connection the pool dropped. SQLSTATE codes and counts, never values.
   * Default: nothing, as the back end's own `log`; pass the same function to both.
   */
  readonly log?: (line: string) => void
  /** Test hook: the migrations to apply (default: this version's). */
  readonly migrations?: readonly Migration[]
}

/** A {@link LedgerStore} on PostgreSQL and what it adds. */
export interface PostgresStore extends LedgerStore {
  /** The schema version the database is at. */
  readonly schemaVersion: number
  /** The pool it runs on, for the shop's own read-only reports. */
  readonly pool: pg.Pool
}

/** The advisory lock the migrations run under: two instances starting at once apply each migration once. */
export const MIGRATION_LOCK_KEY = 7_263_616_264 // "card" in a bigint, nothing else uses it

/** Runs `work` in one transaction on one connection of the pool. */
async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const result = await work(client)
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

/**
 * Applies the migrations the database lacks, each in one transaction with its `schema_migrations`
 * row, under a session advisory lock: instances starting together wait for each other.
 */
async function migrate(pool: pg.Pool, migrations: readonly Migration[]): Promise<number> {
  const client = await pool.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
    try {
      await client.query(SCHEMA_MIGRATIONS_TABLE)
      const current = (await client.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations')).rows[0]?.v ?? 0
      const plan = migrationPlan(current, migrations)
      for (const migration of plan.pending) {
        await client.query('BEGIN')
        try {
          await client.query(migration.sql)
          await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
            migration.version,
            migration.name,
            new Date().toISOString(),
          ])
          await client.query('COMMIT')
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {})
          throw error
        }
      }
      return plan.version
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {})
    }
  } finally {
    client.release()
  }
}

const UPSERT_PROBLEM = `INSERT INTO poll_problems (sequence, change, reason, tries, next_try_at) VALUES ($1, $2, $3, 1, $4)
  ON CONFLICT (sequence) DO UPDATE SET reason = excluded.reason, change = excluded.change, tries = poll_problems.tries + 1,
  next_try_at = excluded.next_try_at`

/**
 * The ledger on PostgreSQL (`pg`), for several shop instances on one database. Every multi-row
 * write is one transaction; attempts and modifications are compare-and-set by version in SQL; the
 * insert of an attempt number is the lock between instances (`ON CONFLICT DO NOTHING`). Migrations
 * are applied at open, under an advisory lock, recorded in `schema_migrations`.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const owned = options.pool === undefined
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString, max: options.max ?? 10 })
  const log = options.log ?? (() => {})
  // An idle connection that breaks (a server restart) is dropped by the pool; it must not end the process.
  if (owned) pool.on('error', (error) => log(`postgres store: the pool dropped an idle connection (${errorCodeOf(error)})`))
  let schemaVersion: number
  try {
    schemaVersion = await migrate(pool, options.migrations ?? POSTGRES_MIGRATIONS)
  } catch (error) {
    if (owned) await pool.end().catch(() => {})
    throw error
  }
  let closed = false
  const writes = createLedgerWrites(pool, log)

  /**
   * One statement, so one transaction: a refused value leaves every setting as it was. In id order,
   * so two instances' steps lock their rows in one order and cannot deadlock each other.
   */
  async function putSettings(settings: Readonly<Record<string, string>>): Promise<void> {
    const entries = Object.entries(settings).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    if (entries.length === 0) return
    await pool.query(
      `INSERT INTO settings (id, value) SELECT * FROM unnest($1::text[], $2::text[])
        ON CONFLICT (id) DO UPDATE SET value = excluded.value`,
      [entries.map(([id]) => id), entries.map(([, value]) => value)],
    )
  }

  return {
    schemaVersion,
    pool,
    async getSetting(id) {
      return (await pool.query<{ value: string }>(prepared('SELECT value FROM settings WHERE id = $1', [id]))).rows[0]?.value
    },
    putSetting: (id, value) => putSettings({ [id]: value }),
    putSettings,
    async replaceSetting(id, expected, value) {
      return (await pool.query('UPDATE settings SET value = $3 WHERE id = $1 AND value = $2', [id, expected, value])).rowCount === 1
    },
    insertAttempt: (a) => writes.insert(a),
    async findAttempt(id) {
      const row = (await pool.query<AttemptRow>(prepared('SELECT * FROM attempts WHERE id = $1', [id]))).rows[0]
      return row && attemptOf(row)
    },
    async findAttemptByPspReference(psp) {
      const row = (await pool.query<AttemptRow>(prepared('SELECT * FROM attempts WHERE psp_reference = $1', [psp]))).rows[0]
      return row && attemptOf(row)
    },
    async listAttempts(orderId) {
      return (await pool.query<AttemptRow>(prepared('SELECT * FROM attempts WHERE order_id = $1 ORDER BY number', [orderId]))).rows.map(
        attemptOf,
      )
    },
    compareAndSet: (id, expectedVersion, patch, change) => writes.update({ id, expectedVersion, patch, change }),
    async insertModification(m) {
      const result = await pool.query(
        `INSERT INTO modifications (id, order_id, attempt_id, kind, currency, value, idempotency_key, state, version, psp_reference,
          error_code, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
        ON CONFLICT DO NOTHING`,
        [
          m.id,
          m.orderId,
          m.attemptId,
          m.kind,
          m.amount?.currency ?? null,
          m.amount?.value ?? null,
          m.idempotencyKey,
          m.state,
          m.version,
          m.pspReference ?? null,
          m.errorCode ?? null,
          m.createdAt,
          m.updatedAt,
        ],
      )
      return result.rowCount === 1
    },
    async findModification(id) {
      const row = (await pool.query<ModificationRow>('SELECT * FROM modifications WHERE id = $1', [id])).rows[0]
      return row && modificationOf(row)
    },
    async listModifications(attemptId) {
      const { rows } = await pool.query<ModificationRow>('SELECT * FROM modifications WHERE attempt_id = $1 ORDER BY created_at, id', [
        attemptId,
      ])
      return rows.map(modificationOf)
    },
    async updateModification(id, expectedVersion, patch: ModificationPatch) {
      const row = (
        await pool.query<ModificationRow>(
          `UPDATE modifications SET state = $3, psp_reference = COALESCE($4, psp_reference), error_code = $5, updated_at = $6,
            version = version + 1 WHERE id = $1 AND version = $2 RETURNING *`,
          [id, expectedVersion, patch.state, patch.pspReference ?? null, patch.errorCode ?? null, patch.updatedAt],
        )
      ).rows[0]
      return row && modificationOf(row)
    },
    async readCursor() {
      const row = (await pool.query<{ cursor: string }>(prepared('SELECT cursor FROM poll_state WHERE id = 1', []))).rows[0]
      return row ? Number(row.cursor) : 0
    },
    async applyChangesAndCursor(batch: PollBatch): Promise<PollBatchResult> {
      return inTransaction(pool, async (client) => {
        if (batch.lease) {
          // Locks the lease row: a taker waits for this commit, and this commit sees any take before it.
          const held = (
            await client.query<{ holder: string; expires_at: string }>('SELECT holder, expires_at FROM leases WHERE name = $1 FOR UPDATE', [
              batch.lease.name,
            ])
          ).rows[0]
          if (!held || held.holder !== batch.lease.holder || held.expires_at <= batch.lease.now) throw new LeaseLostError(batch.lease.name)
        }
        const conflicts: number[] = []
        const repeats: number[] = []
        const resolve = (sequence: number) => client.query('DELETE FROM poll_problems WHERE sequence = $1', [sequence])
        for (const applied of batch.applied) {
          // Marked seen first: of two writers of one sequence, the second finds it and applies nothing.
          const marked = await client.query('INSERT INTO seen_changes (sequence, seen_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
            applied.sequence,
            batch.at,
          ])
          if (marked.rowCount !== 1) {
            repeats.push(applied.sequence)
            await resolve(applied.sequence)
            continue
          }
          const update = { id: applied.attemptId, expectedVersion: applied.expectedVersion, patch: applied.patch, change: applied.change }
          if (await casAttempt(client, update)) {
            await resolve(applied.sequence)
          } else {
            conflicts.push(applied.sequence)
            await client.query('DELETE FROM seen_changes WHERE sequence = $1', [applied.sequence])
            await client.query(UPSERT_PROBLEM, [applied.sequence, JSON.stringify(applied.record), 'CONFLICT', batch.at])
          }
        }
        for (const sequence of batch.skipped) {
          await client.query('INSERT INTO seen_changes (sequence, seen_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [sequence, batch.at])
          await resolve(sequence)
        }
        for (const problem of batch.problems)
          await client.query(UPSERT_PROBLEM, [problem.sequence, JSON.stringify(problem.change), problem.reason, problem.nextTryAt])
        for (const sequence of batch.resolved) await resolve(sequence)
        if (batch.cursor !== undefined)
          await client.query(
            `INSERT INTO poll_state (id, cursor) VALUES (1, $1)
              ON CONFLICT (id) DO UPDATE SET cursor = GREATEST(poll_state.cursor, excluded.cursor)`,
            [batch.cursor],
          )
        return { conflicts, repeats }
      })
    },
    async listProblems(now) {
      const result =
        now === undefined
          ? await pool.query<ProblemRow>('SELECT * FROM poll_problems ORDER BY sequence')
          : await pool.query<ProblemRow>('SELECT * FROM poll_problems WHERE next_try_at <= $1 ORDER BY sequence', [now])
      return result.rows.map(problemOf)
    },
    async dueOutbox(now, limit) {
      const rows = (
        await pool.query<OutboxRow>(
          prepared(
            `SELECT * FROM outbox o WHERE o.delivered_at IS NULL AND o.next_try_at <= $1 AND NOT EXISTS (
              SELECT 1 FROM outbox e WHERE e.order_id = o.order_id AND e.id < o.id AND e.delivered_at IS NULL AND e.next_try_at > $1)
            ORDER BY o.id LIMIT $2`,
            [now, limit],
          ),
        )
      ).rows
      return rows.map(outboxEntryOf)
    },
    // Delivered changes go: the attempts keep the history, and the outbox stays small.
    markDelivered: (id) => writes.delivered(id),
    async markDeliveryFailed(id, nextTryAt) {
      await pool.query('UPDATE outbox SET tries = tries + 1, next_try_at = $1 WHERE id = $2', [nextTryAt, id])
    },
    async acquireLease(name, holder, ttlMs, now) {
      const expiresAt = new Date(Date.parse(now) + ttlMs).toISOString()
      return inTransaction(pool, async (client) => {
        // One statement: taken when free, expired at `now`, or this holder's own (a renewal).
        const taken = await client.query(
          `INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3)
            ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
            WHERE leases.holder = excluded.holder OR leases.expires_at <= $4`,
          [name, holder, expiresAt, now],
        )
        const row = (await client.query<LeaseRow>('SELECT * FROM leases WHERE name = $1', [name])).rows[0]!
        const lease = leaseOf(row)
        return { acquired: taken.rowCount === 1 && lease.holder === holder, lease }
      })
    },
    async releaseLease(name, holder) {
      await pool.query('DELETE FROM leases WHERE name = $1 AND holder = $2', [name, holder])
    },
    async close() {
      if (closed) return
      closed = true
      // The writes asked for are answered, not cut off.
      await writes.settled()
      if (owned) await pool.end()
    },
  }
}

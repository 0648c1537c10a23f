import Database from 'better-sqlite3'
import { closeSync, fsyncSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  type AttemptPatch,
  type LedgerStore,
  type ModificationPatch,
  type OrderChange,
  type PollBatch,
  type WrittenAttempt,
  type PollBatchResult,
  LeaseLostError,
} from '../store.js'
import { createGroupCommit } from './group-commit.js'
import { MIGRATIONS } from './migrations.js'
import { type Migration, migrationPlan, SCHEMA_MIGRATIONS_TABLE } from '../lib/migration-plan.js'
import {
  attemptOf,
  type AttemptRow,
  type LeaseRow,
  leaseOf,
  modificationOf,
  type ModificationRow,
  outboxEntryOf,
  type OutboxRow,
  PATCH_FIELDS,
  patchWrites,
  problemOf,
  rowOfAttempt,
  storedPatchValue,
  type ProblemRow,
} from '../lib/ledger-rows.js'

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /** The database file, e.g. `<data folder>/payments.sqlite`; its folder is created. */
  readonly path: string
  /** Test hook: the migrations to apply (default: this version's). */
  readonly migrations?: readonly Migration[]
  /**
   * Hears what the store cannot tell a single caller: a group commit or a WAL sync that failed (with
   * SQLite's or the OS's error code, never a row's values). Default: nothing, as the back end's own
   * `log`; pass the same function to both.
   */
  readonly log?: (line: string) => void
}

/** A {@link LedgerStore} and what it adds. */
export interface SqliteStore extends LedgerStore {
  /** The schema version the database is at. */
  readonly schemaVersion: number
  /** The underlying connection, for the shop's own read-only reports. */
  readonly database: Database.Database
}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code?.startsWith('SQLITE_CONSTRAINT') === true

function fsyncFolder(path: string): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** Applies the migrations the database lacks, each in one transaction with its `schema_migrations` row. */
function migrate(db: Database.Database, migrations: readonly Migration[]): number {
  db.exec(SCHEMA_MIGRATIONS_TABLE)
  const current = (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0
  const plan = migrationPlan(current, migrations)
  for (const migration of plan.pending) {
    db.transaction(() => {
      db.exec(migration.sql)
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      )
    }).immediate()
  }
  return plan.version
}

/**
 * The embedded default store: one SQLite file (better-sqlite3) in WAL mode, busy_timeout for a
 * second process on the same file. Writes share commits, and a write is acknowledged only once its
 * commit is on disk (the WAL fdatasync'd: see ./group-commit.ts), so it survives a killed process
 * and a power cut alike.
 */
export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  mkdirSync(dirname(options.path), { recursive: true })
  const db = new Database(options.path)
  db.pragma('journal_mode = WAL')
  db.pragma('busy_timeout = 5000')
  db.pragma('foreign_keys = ON')
  // FULL for the migrations (and their WAL file's creation); then NORMAL with the sync done by createGroupCommit.
  db.pragma('synchronous = FULL')
  const schemaVersion = migrate(db, options.migrations ?? MIGRATIONS)
  fsyncFolder(dirname(options.path)) // the -wal file's name is on disk too
  db.pragma('synchronous = NORMAL')
  const groupCommit = createGroupCommit(db, `${options.path}-wal`, options.log ?? (() => {}))
  const { write, writeOne, read } = groupCommit

  const q = {
    getSetting: db.prepare('SELECT value FROM settings WHERE id = ?'),
    putSetting: db.prepare('INSERT INTO settings (id, value) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET value = excluded.value'),
    replaceSetting: db.prepare('UPDATE settings SET value = ? WHERE id = ? AND value = ?'),
    insertAttempt: db.prepare(`INSERT INTO attempts (id, order_id, number, idempotency_key, state, version, currency, value, method_type,
      fingerprint, result_code, psp_reference, answer, details_step, details_key, details_fingerprint, error_code, captured_value,
      refunded_value, created_at, updated_at)
      VALUES (@id, @order_id, @number, @idempotency_key, @state, @version, @currency, @value, @method_type, @fingerprint,
      @result_code, @psp_reference, @answer, @details_step, @details_key, @details_fingerprint, @error_code, @captured_value,
      @refunded_value, @created_at, @updated_at)`),
    findAttempt: db.prepare('SELECT * FROM attempts WHERE id = ?'),
    findByPsp: db.prepare('SELECT * FROM attempts WHERE psp_reference = ?'),
    listAttempts: db.prepare('SELECT * FROM attempts WHERE order_id = ? ORDER BY number'),
    insertOutbox: db.prepare('INSERT INTO outbox (order_id, change, next_try_at) VALUES (?, ?, ?)'),
    undeliveredOfOrder: db.prepare('SELECT 1 FROM outbox WHERE order_id = ? LIMIT 1'),
    insertModification:
      db.prepare(`INSERT INTO modifications (id, order_id, attempt_id, kind, currency, value, idempotency_key, state, version,
      psp_reference, error_code, created_at, updated_at)
      VALUES (@id, @order_id, @attempt_id, @kind, @currency, @value, @idempotency_key, @state, @version, @psp_reference,
      @error_code, @created_at, @updated_at)`),
    findModification: db.prepare('SELECT * FROM modifications WHERE id = ?'),
    listModifications: db.prepare('SELECT * FROM modifications WHERE attempt_id = ? ORDER BY created_at, id'),
    updateModification: db.prepare(
      `UPDATE modifications SET state = @state, psp_reference = COALESCE(@psp_reference, psp_reference), error_code = @error_code,
      updated_at = @updated_at, version = version + 1 WHERE id = @id AND version = @version`,
    ),
    readCursor: db.prepare('SELECT cursor FROM poll_state WHERE id = 1'),
    writeCursor: db.prepare(
      'INSERT INTO poll_state (id, cursor) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET cursor = MAX(cursor, excluded.cursor)',
    ),
    seen: db.prepare('SELECT 1 FROM seen_changes WHERE sequence = ?'),
    markSeen: db.prepare('INSERT OR IGNORE INTO seen_changes (sequence, seen_at) VALUES (?, ?)'),
    upsertProblem: db.prepare(`INSERT INTO poll_problems (sequence, change, reason, tries, next_try_at) VALUES (?, ?, ?, 1, ?)
      ON CONFLICT(sequence) DO UPDATE SET reason = excluded.reason, change = excluded.change, tries = tries + 1,
      next_try_at = excluded.next_try_at`),
    resolveProblem: db.prepare('DELETE FROM poll_problems WHERE sequence = ?'),
    allProblems: db.prepare('SELECT * FROM poll_problems ORDER BY sequence'),
    dueProblems: db.prepare('SELECT * FROM poll_problems WHERE next_try_at <= ? ORDER BY sequence'),
    // An order's change waits while an earlier one of it waits for its next try: the shop hears them in order.
    dueOutbox: db.prepare(`SELECT * FROM outbox o WHERE o.delivered_at IS NULL AND o.next_try_at <= @now AND NOT EXISTS (
      SELECT 1 FROM outbox e WHERE e.order_id = o.order_id AND e.id < o.id AND e.delivered_at IS NULL AND e.next_try_at > @now)
      ORDER BY o.id LIMIT @limit`),
    // Delivered changes go: the attempts keep the history, and the outbox stays a few pages.
    delivered: db.prepare('DELETE FROM outbox WHERE id = ?'),
    deliveryFailed: db.prepare('UPDATE outbox SET tries = tries + 1, next_try_at = ? WHERE id = ?'),
    takeLease: db.prepare(`INSERT INTO leases (name, holder, expires_at) VALUES (@name, @holder, @expires_at)
      ON CONFLICT(name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
      WHERE leases.holder = excluded.holder OR leases.expires_at <= @now`),
    readLease: db.prepare('SELECT name, holder, expires_at FROM leases WHERE name = ?'),
    releaseLease: db.prepare('DELETE FROM leases WHERE name = ? AND holder = ?'),
  }

  /** A patch's column set, prepared on first use and kept. */
  const casStatements = new Map<string, Database.Statement>()

  /** The CAS itself, inside whichever transaction calls it. */
  function casAttempt(id: string, expectedVersion: number, patch: AttemptPatch, change?: OrderChange): WrittenAttempt | undefined {
    const sets: string[] = []
    const values: Record<string, unknown> = { id, expected: expectedVersion }
    for (const [key, column] of PATCH_FIELDS) {
      if (!patchWrites(patch, key)) continue
      sets.push(`${column} = @${column}`)
      values[column] = storedPatchValue(patch, key)
    }
    const sql = `UPDATE attempts SET ${[...sets, 'version = version + 1'].join(', ')} WHERE id = @id AND version = @expected RETURNING *`
    let statement = casStatements.get(sql)
    if (!statement) {
      statement = db.prepare(sql)
      casStatements.set(sql, statement)
    }
    const row = statement.get(values) as AttemptRow | undefined
    if (!row) return undefined
    if (!change) return attemptOf(row)
    // Read before the insert: any undelivered change of the order there is earlier than this one.
    const behindEarlier = q.undeliveredOfOrder.get(change.orderId) !== undefined
    const { lastInsertRowid } = q.insertOutbox.run(change.orderId, JSON.stringify(change), patch.updatedAt)
    const entry = { id: Number(lastInsertRowid), change, tries: 0, nextTryAt: patch.updatedAt }
    return { ...attemptOf(row), queued: { entry, behindEarlier } }
  }

  return {
    schemaVersion,
    database: db,
    getSetting: (id) => read(() => (q.getSetting.get(id) as { value: string } | undefined)?.value),
    async putSetting(id, value) {
      await writeOne(() => q.putSetting.run(id, value))
    },
    async putSettings(settings) {
      // `write`, not `writeOne`: the statements share a savepoint, so a refused one undoes the others.
      const entries = Object.entries(settings)
      if (entries.length === 0) return
      await write(() => {
        for (const [id, value] of entries) q.putSetting.run(id, value)
      })
    },
    replaceSetting: (id, expected, value) => writeOne(() => q.replaceSetting.run(value, id, expected).changes === 1),
    insertAttempt: (a) =>
      writeOne(() => {
        try {
          q.insertAttempt.run(rowOfAttempt(a))
          return true
        } catch (error) {
          if (isUniqueViolation(error)) return false
          throw error
        }
      }),
    findAttempt: (id) =>
      read(() => {
        const row = q.findAttempt.get(id) as AttemptRow | undefined
        return row && attemptOf(row)
      }),
    findAttemptByPspReference: (psp) =>
      read(() => {
        const row = q.findByPsp.get(psp) as AttemptRow | undefined
        return row && attemptOf(row)
      }),
    listAttempts: (orderId) => read(() => (q.listAttempts.all(orderId) as AttemptRow[]).map(attemptOf)),
    compareAndSet: (id, expectedVersion, patch, change) => write(() => casAttempt(id, expectedVersion, patch, change)),
    insertModification: (m) =>
      writeOne(() => {
        try {
          q.insertModification.run({
            id: m.id,
            order_id: m.orderId,
            attempt_id: m.attemptId,
            kind: m.kind,
            currency: m.amount?.currency ?? null,
            value: m.amount?.value ?? null,
            idempotency_key: m.idempotencyKey,
            state: m.state,
            version: m.version,
            psp_reference: m.pspReference ?? null,
            error_code: m.errorCode ?? null,
            created_at: m.createdAt,
            updated_at: m.updatedAt,
          })
          return true
        } catch (error) {
          if (isUniqueViolation(error)) return false
          throw error
        }
      }),
    findModification: (id) =>
      read(() => {
        const row = q.findModification.get(id) as ModificationRow | undefined
        return row && modificationOf(row)
      }),
    listModifications: (attemptId) => read(() => (q.listModifications.all(attemptId) as ModificationRow[]).map(modificationOf)),
    updateModification: (id, expectedVersion, patch: ModificationPatch) =>
      write(() => {
        const result = q.updateModification.run({
          id,
          version: expectedVersion,
          state: patch.state,
          psp_reference: patch.pspReference ?? null,
          error_code: patch.errorCode ?? null,
          updated_at: patch.updatedAt,
        })
        if (result.changes !== 1) return undefined
        return modificationOf(q.findModification.get(id) as ModificationRow)
      }),
    readCursor: () => read(() => (q.readCursor.get() as { cursor: number } | undefined)?.cursor ?? 0),
    applyChangesAndCursor: (batch: PollBatch): Promise<PollBatchResult> =>
      write(() => {
        if (batch.lease) {
          const held = q.readLease.get(batch.lease.name) as { holder: string; expires_at: string } | undefined
          if (!held || held.holder !== batch.lease.holder || held.expires_at <= batch.lease.now) throw new LeaseLostError(batch.lease.name)
        }
        const conflicts: number[] = []
        const repeats: number[] = []
        for (const applied of batch.applied) {
          // Seen already (another poller, or a repeat of the feed): applying it twice could move amounts twice.
          if (q.seen.get(applied.sequence)) {
            repeats.push(applied.sequence)
            q.resolveProblem.run(applied.sequence)
            continue
          }
          if (casAttempt(applied.attemptId, applied.expectedVersion, applied.patch, applied.change)) {
            q.markSeen.run(applied.sequence, batch.at)
            q.resolveProblem.run(applied.sequence)
          } else {
            conflicts.push(applied.sequence)
            q.upsertProblem.run(applied.sequence, JSON.stringify(applied.record), 'CONFLICT', batch.at)
          }
        }
        for (const sequence of batch.skipped) {
          q.markSeen.run(sequence, batch.at)
          q.resolveProblem.run(sequence)
        }
        for (const problem of batch.problems)
          q.upsertProblem.run(problem.sequence, JSON.stringify(problem.change), problem.reason, problem.nextTryAt)
        for (const sequence of batch.resolved) q.resolveProblem.run(sequence)
        if (batch.cursor !== undefined) q.writeCursor.run(batch.cursor)
        return { conflicts, repeats }
      }),
    listProblems: (now) =>
      read(() => {
        const rows = (now === undefined ? q.allProblems.all() : q.dueProblems.all(now)) as ProblemRow[]
        return rows.map(problemOf)
      }),
    dueOutbox: (now, limit) =>
      read(() => {
        return (q.dueOutbox.all({ now, limit }) as OutboxRow[]).map(outboxEntryOf)
      }),
    async markDelivered(id) {
      await writeOne(() => q.delivered.run(id))
    },
    async markDeliveryFailed(id, nextTryAt) {
      await writeOne(() => q.deliveryFailed.run(nextTryAt, id))
    },
    async acquireLease(name, holder, ttlMs, now) {
      const expiresAt = new Date(Date.parse(now) + ttlMs).toISOString()
      return write(() => {
        const taken = q.takeLease.run({ name, holder, expires_at: expiresAt, now }).changes === 1
        const lease = leaseOf(q.readLease.get(name) as LeaseRow)
        return { acquired: taken && lease.holder === holder, lease }
      })
    },
    async releaseLease(name, holder) {
      await writeOne(() => q.releaseLease.run(name, holder))
    },
    async close() {
      if (!db.open) return
      await groupCommit.close() // what is queued is committed and on disk, not dropped
      db.close()
    },
  }
}

/**
 * The {@link LedgerStore} both SQL stores are: each method a rule (steps.ts) on the shared statements
 * (ledger-sql.ts) and row mappings (ledger-rows.ts). A dialect gives the driver that runs rules,
 * and the methods it writes its own way (PostgreSQL sends its payment path's writes in groups).
 */
import {
  attemptOf,
  ATTEMPT_COLUMNS,
  type AttemptRow,
  MODIFICATION_COLUMNS,
  modificationOf,
  type ModificationRow,
  outboxEntryOf,
  type OutboxRow,
  problemOf,
  type ProblemRow,
  type LeaseRow,
  leaseOf,
  rowOfAttempt,
  rowOfModification,
  valuesOf,
} from './ledger-rows.js'
import type { LedgerStore } from './ledger-store.js'
import { deliverNow, dismissDelivery, dismissProblem } from './admin-rules.js'
import { type DismissedDeliveryRow, dismissedDeliveryOf, dismissedProblemOf, type DismissedProblemRow } from './dismissed.js'
import { applyFeedPage } from './feed-page.js'
import { acquireLease } from './lease.js'
import type { LedgerSql } from './ledger-sql.js'
import { changes, every, first, type LedgerRule, step } from './steps.js'

/** How a dialect runs the ledger's rules. */
export interface LedgerDriver {
  /** A rule that only reads. */
  read<T>(rule: LedgerRule<T>): Promise<T>
  /** A rule of one statement that writes. */
  writeOne<T>(rule: LedgerRule<T>): Promise<T>
  /** A rule of one insert: false when the row is refused as there already, however the dialect says so. */
  insert(rule: LedgerRule<boolean>): Promise<boolean>
  /** A rule of several statements, in one transaction: all of it or, when it throws, none. */
  write<T>(rule: LedgerRule<T>): Promise<T>
}

/** The methods a dialect writes its own way, and its `close`. */
export type DialectMethods = Partial<LedgerStore> & Pick<LedgerStore, 'close'>

/** Whether the insert `name` stored its row. */
function* inserted(name: keyof LedgerSql, values: readonly unknown[]): LedgerRule<boolean> {
  return (yield* changes(name, values)) === 1
}

function* putAll(entries: ReadonlyArray<readonly [string, string]>): LedgerRule<void> {
  for (const entry of entries) yield* changes('putSetting', entry)
}

const attemptOfRow = (row: AttemptRow | undefined) => row && attemptOf(row)
const modificationOfRow = (row: ModificationRow | undefined) => row && modificationOf(row)

export function sqlLedgerStore(driver: LedgerDriver, own: DialectMethods): LedgerStore {
  const { read, writeOne, insert, write } = driver
  async function count(
    statement: 'anyAttempt' | 'openAttemptCount' | 'openModificationCount' | 'outboxBacklog',
    values?: readonly unknown[],
  ): Promise<number> {
    // PostgreSQL gives a COUNT as text.
    const row = await read(first<{ n: number | string }>(statement, values))
    return Number(row?.n ?? 0)
  }
  return {
    getSetting: async (id) => (await read(first<{ value: string }>('getSetting', [id])))?.value,
    async putSetting(id, value) {
      await writeOne(changes('putSetting', [id, value]))
    },
    async putSettings(settings) {
      const entries = Object.entries(settings)
      // One transaction: a refused value undoes the others.
      if (entries.length > 0) await write(putAll(entries))
    },
    replaceSetting: async (id, expected, value) => (await writeOne(changes('replaceSetting', [id, expected, value]))) === 1,
    insertAttempt: (a) => insert(inserted('insertAttempt', valuesOf(rowOfAttempt(a), ATTEMPT_COLUMNS))),
    findAttempt: async (id) => attemptOfRow(await read(first<AttemptRow>('findAttempt', [id]))),
    findAttemptByPspReference: async (psp) => attemptOfRow(await read(first<AttemptRow>('findAttemptByPspReference', [psp]))),
    listAttempts: async (orderId) => (await read(every<AttemptRow>('listAttempts', [orderId]))).map(attemptOf),
    holdsAttempts: async () => (await count('anyAttempt')) > 0,
    listOpenAttempts: async (before, limit) => (await read(every<AttemptRow>('openAttempts', [before, limit]))).map(attemptOf),
    countOpenAttempts: (before) => count('openAttemptCount', [before]),
    listPaidTwice: async (limit) => (await read(every<AttemptRow>('paidTwice', [limit]))).map(attemptOf),
    compareAndSet: (id, expectedVersion, patch, change) => write(step((s) => s.compareAndSet({ id, expectedVersion, patch, change }))),
    insertModification: (m) => insert(inserted('insertModification', valuesOf(rowOfModification(m), MODIFICATION_COLUMNS))),
    findModification: async (id) => modificationOfRow(await read(first<ModificationRow>('findModification', [id]))),
    listModifications: async (attemptId) => (await read(every<ModificationRow>('listModifications', [attemptId]))).map(modificationOf),
    listOpenModifications: async (before, limit) =>
      (await read(every<ModificationRow>('openModifications', [before, limit]))).map(modificationOf),
    countOpenModifications: (before) => count('openModificationCount', [before]),
    async updateModification(id, expectedVersion, patch) {
      const values = [
        id,
        expectedVersion,
        patch.state,
        patch.pspReference ?? null,
        patch.errorCode ?? null,
        patch.updatedAt,
        patch.sentAgainAt ?? null,
      ]
      return modificationOfRow(await writeOne(first<ModificationRow>('updateModification', values)))
    },
    async readCursor() {
      // PostgreSQL gives a BIGINT as text.
      const row = await read(first<{ cursor: number | string }>('readCursor'))
      return row ? Number(row.cursor) : 0
    },
    applyChangesAndCursor: (batch) => write(applyFeedPage(batch)),
    async listProblems(now) {
      const rows = await read(now === undefined ? every<ProblemRow>('allProblems') : every<ProblemRow>('dueProblems', [now]))
      return rows.map(problemOf)
    },
    dueOutbox: async (now, limit) => (await read(every<OutboxRow>('dueOutbox', [now, limit]))).map(outboxEntryOf),
    outboxBacklog: () => count('outboxBacklog'),
    async readLease(name) {
      const row = await read(first<LeaseRow>('readLease', [name]))
      return row && leaseOf(row)
    },
    async markDelivered(id) {
      await writeOne(changes('delivered', [id]))
    },
    async markDeliveryFailed(id, nextTryAt) {
      await writeOne(changes('deliveryFailed', [id, nextTryAt]))
    },
    listOutbox: async (limit, fromId = 0) => (await read(every<OutboxRow>('undeliveredOutbox', [limit, fromId]))).map(outboxEntryOf),
    retryDelivery: (id, now) => write(deliverNow(id, now)),
    dismissDelivery: (id, at) => write(dismissDelivery(id, at)),
    dismissProblem: (sequence, at) => write(dismissProblem(sequence, at)),
    async listDismissed(limit) {
      const problems = await read(every<DismissedProblemRow>('dismissedProblems', [limit]))
      const deliveries = await read(every<DismissedDeliveryRow>('dismissedDeliveries', [limit]))
      return { problems: problems.map(dismissedProblemOf), deliveries: deliveries.map(dismissedDeliveryOf) }
    },
    acquireLease: (name, holder, ttlMs, now) => write(acquireLease(name, holder, ttlMs, now)),
    async releaseLease(name, holder) {
      await writeOne(changes('releaseLease', [name, holder]))
    },
    ...own,
  }
}

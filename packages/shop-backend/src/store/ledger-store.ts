/**
 * The seam between the ledger and its storage: the {@link LedgerStore} interface. Its records, the
 * poll batch and the lease are in `./store/`; the rules both SQL stores share are there too.
 */
import type { DismissedRecords } from './dismissed.js'
import type { Lease, LeaseAnswer } from './lease.js'
import type { PollBatch, PollBatchResult, PollProblem } from './poll-batch.js'
import type {
  AttemptPatch,
  AttemptRecord,
  ModificationPatch,
  ModificationRecord,
  OrderChange,
  OutboxEntry,
  WrittenAttempt,
} from './records.js'

export type {
  AttemptPatch,
  AttemptRecord,
  ModificationKind,
  ModificationPatch,
  ModificationRecord,
  Money,
  OrderChange,
  OutboxEntry,
  QueuedChange,
  RefundLine,
  SentLine,
  WrittenAttempt,
} from './records.js'
export type { AppliedChange, PollBatch, PollBatchResult, PollProblem } from './poll-batch.js'
export type { Lease, LeaseAnswer, LeaseClaim } from './lease.js'
export type { DismissedDelivery, DismissedProblem, DismissedRecords } from './dismissed.js'
export { LeaseLostError } from './lease.js'

/**
 * The ledger's storage. Async throughout, and every multi-row write is one store operation (one
 * transaction), so a PostgreSQL store can implement it as well as the embedded SQLite one.
 * `test/store-conformance.ts` is the suite every store must pass.
 */
export interface LedgerStore {
  /** A setting of the back end (shop id, sealed secrets, store id), or undefined. */
  getSetting(id: string): Promise<string | undefined>
  /** Writes a setting, replacing its value. */
  putSetting(id: string, value: string): Promise<void>
  /** Writes several settings in one transaction, replacing their values: all of them or none, so a crash never keeps half of them. */
  putSettings(settings: Readonly<Record<string, string>>): Promise<void>
  /** Writes `value` only while the setting holds `expected` (a compare-and-set): false when it holds something else. */
  replaceSetting(id: string, expected: string, value: string): Promise<boolean>
  /** Inserts unless the order already has an attempt with this number: false then (the race's loser re-reads). */
  insertAttempt(attempt: AttemptRecord): Promise<boolean>
  /** The attempt with this id. */
  findAttempt(id: string): Promise<AttemptRecord | undefined>
  /** The attempt the service knows by this reference. */
  findAttemptByPspReference(pspReference: string): Promise<AttemptRecord | undefined>
  /** An order's attempts, by number. */
  listAttempts(orderId: string): Promise<AttemptRecord[]>
  /** Whether any attempt is stored: the ledger holds its shop's payments (`connect()` keeps it to that shop). */
  holdsAttempts(): Promise<boolean>
  /**
   * Writes `patch` and version + 1 when the version is still `expectedVersion`, queueing `change`
   * in the same transaction; else undefined. A store that says what it queued (`queued`) lets the
   * shop hear the change without reading the outbox again; one that does not is drained instead.
   */
  compareAndSet(id: string, expectedVersion: number, patch: AttemptPatch, change?: OrderChange): Promise<WrittenAttempt | undefined>
  /**
   * Attempts whose outcome is open (`created`, `pending`: no final answer yet; `confirming`) and unchanged
   * since before `before`, oldest first, at most `limit`: payments nothing has settled, for a person to see.
   */
  listOpenAttempts(before: string, limit: number): Promise<AttemptRecord[]>
  /** How many attempts {@link listOpenAttempts} would list without a limit (the gauge of payments open too long). */
  countOpenAttempts(before: string): Promise<number>
  /**
   * Orders paid twice: the attempts that hold the shopper's money (authorised, captured, partly
   * captured or refunded) of each order where two or more do, by order id and number, at most `limit`.
   */
  listPaidTwice(limit: number): Promise<AttemptRecord[]>
  /** Inserts unless a modification with this id exists: false then (a repeated request). */
  insertModification(modification: ModificationRecord): Promise<boolean>
  /** The modification with this id. */
  findModification(id: string): Promise<ModificationRecord | undefined>
  /**
   * Modifications stored and never answered (`requested`: the call's outcome open, or never sent) and
   * unchanged since before `before`, oldest first, at most `limit`: money asked to move that nothing moved.
   */
  listOpenModifications(before: string, limit: number): Promise<ModificationRecord[]>
  /** How many modifications {@link listOpenModifications} would list without a limit (their gauge). */
  countOpenModifications(before: string): Promise<number>
  /** An attempt's modifications, oldest first (what is asked and not in the feed yet counts against what is left). */
  listModifications(attemptId: string): Promise<ModificationRecord[]>
  /** As {@link compareAndSet}, for a modification. */
  updateModification(id: string, expectedVersion: number, patch: ModificationPatch): Promise<ModificationRecord | undefined>
  /** The feed's cursor: the last sequence applied (0 at first). */
  readCursor(): Promise<number>
  /** Changes, seen sequences, problems and the cursor in one transaction; checks `batch.lease` in it first. */
  applyChangesAndCursor(batch: PollBatch): Promise<PollBatchResult>
  /** Problems due at `now` (all when absent), oldest sequence first. */
  listProblems(now?: string): Promise<PollProblem[]>
  /**
   * Undelivered changes due at `now`, oldest first. An order's change is left out while an earlier one
   * of the same order is undelivered and not due (its delivery failed and waits): the shop hears an order's changes in order.
   */
  dueOutbox(now: string, limit: number): Promise<OutboxEntry[]>
  /** How many changes are not delivered yet, due now or waiting for their next try (for the outbox backlog gauge). */
  outboxBacklog(): Promise<number>
  /** The change reached the shop: not due again. */
  markDelivered(id: number): Promise<void>
  /** The shop's callback threw: tries + 1, due again at `nextTryAt`. */
  markDeliveryFailed(id: number, nextTryAt: string): Promise<void>
  /** Undelivered changes from the entry `fromId` on (default all), due or waiting (a failed delivery's next try), oldest first. */
  listOutbox(limit: number, fromId?: number): Promise<OutboxEntry[]>
  /**
   * Makes the undelivered entry `id` due at `now`, with its order's earlier undelivered ones (the shop
   * still hears an order's changes in order): false when it is not in the outbox.
   */
  retryDelivery(id: number, now: string): Promise<boolean>
  /**
   * Takes the undelivered entry `id` out of the outbox and keeps it as dismissed at `at`, in one
   * transaction: never delivered again, and its order's later changes no longer wait for it. False when
   * it is not in the outbox (delivered meanwhile).
   */
  dismissDelivery(id: number, at: string): Promise<boolean>
  /**
   * Takes the open problem `sequence` out of the problems, keeps it as dismissed at `at` and marks its
   * sequence seen, in one transaction: never applied or listed as open again. False when it is not open.
   */
  dismissProblem(sequence: number, at: string): Promise<boolean>
  /** The newest `limit` dismissed problems and deliveries, newest first. */
  listDismissed(limit: number): Promise<DismissedRecords>
  /**
   * Takes the lease `name` for `holder` until `now + ttlMs` when it is free, expired at `now`, or
   * already this holder's (a renewal): one compare-and-set. Returns the lease as stored afterwards,
   * so a caller that did not get it learns who holds it and until when.
   */
  acquireLease(name: string, holder: string, ttlMs: number, now: string): Promise<LeaseAnswer>
  /** The lease as stored (perhaps expired), or undefined when none is: a read only, for readiness. */
  readLease(name: string): Promise<Lease | undefined>
  /** Gives the lease up if `holder` holds it (a stopped poller); another instance may take it at once. */
  releaseLease(name: string, holder: string): Promise<void>
  /** Commits what is queued and closes the connection (or the pool the store made). */
  close(): Promise<void>
}

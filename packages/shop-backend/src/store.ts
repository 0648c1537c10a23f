import type { AttemptState } from './transitions.js'

/** An amount in minor units (spec: "Payment request", `amount`). */
export interface Money {
  readonly currency: string
  readonly value: number
}

/** One payment attempt of an order: one idempotency key, one payment at the service at most. */
export interface AttemptRecord {
  /** `${orderId}:${number}`. */
  readonly id: string
  readonly orderId: string
  /** 1, 2, ...: unique per order, so inserting it is the lock across processes. */
  readonly number: number
  /** Stored before the call; every re-send of this attempt carries it. */
  readonly idempotencyKey: string
  readonly state: AttemptState
  /** Bumped by every write; writes are compare-and-set on it. */
  readonly version: number
  readonly amount: Money
  /** `scheme`, `ideal`, ...: the service's idempotency covers the method type. */
  readonly methodType: string
  /** SHA-256 of the submitted `paymentMethod`: an identical submission (a double click) gets this attempt's answer. */
  readonly fingerprint: string
  readonly resultCode?: string | undefined
  readonly pspReference?: string | undefined
  /** The service's last answer (payment response), stored before the page hears anything. */
  readonly answer?: Readonly<Record<string, unknown>> | undefined
  /** Shopper steps answered so far (fingerprint, challenge, redirect). */
  readonly detailsStep: number
  /** Set, before the call, while a payment-details call is out; its retries carry it. */
  readonly detailsKey?: string | undefined
  /** SHA-256 of the `details` that produced the stored answer: the same details again get that answer. */
  readonly detailsFingerprint?: string | undefined
  /** From the service's refusal: its error code (never a value). */
  readonly errorCode?: string | undefined
  readonly capturedValue: number
  readonly refundedValue: number
  readonly createdAt: string
  readonly updatedAt: string
}

/** What a compare-and-set may change; `null` clears an optional field. */
export interface AttemptPatch {
  readonly state?: AttemptState
  readonly resultCode?: string | null
  readonly pspReference?: string | null
  readonly answer?: Readonly<Record<string, unknown>> | null
  readonly detailsStep?: number
  readonly detailsKey?: string | null
  readonly detailsFingerprint?: string | null
  readonly errorCode?: string | null
  readonly capturedValue?: number
  readonly refundedValue?: number
  readonly updatedAt: string
}

/** What the shop hears of (its `onOrderChange`): through the outbox, after the commit, retried until it returns. */
export interface OrderChange {
  readonly orderId: string
  /** The attempt's number: an order abandoned at the bank and paid otherwise may have two. */
  readonly attempt: number
  readonly state: AttemptState
  readonly previousState: AttemptState
  readonly resultCode?: string | undefined
  readonly pspReference?: string | undefined
  readonly amount: Money
  readonly capturedValue: number
  readonly refundedValue: number
}

/** An undelivered {@link OrderChange}. */
export interface OutboxEntry {
  readonly id: number
  readonly change: OrderChange
  /** Failed deliveries so far. */
  readonly tries: number
  readonly nextTryAt: string
}

export type ModificationKind = 'capture' | 'refund' | 'cancel'

/** A capture, refund or cancel: its key stored before the call. */
export interface ModificationRecord {
  /** The merchant's request id (one click), or a generated one. */
  readonly id: string
  readonly orderId: string
  readonly attemptId: string
  readonly kind: ModificationKind
  readonly amount?: Money | undefined
  readonly idempotencyKey: string
  /** `requested`: stored, not answered; `received`: the service took it (the outcome comes through the feed). */
  readonly state: 'requested' | 'received' | 'refused'
  readonly version: number
  readonly pspReference?: string | undefined
  readonly errorCode?: string | undefined
  readonly createdAt: string
  readonly updatedAt: string
}

export interface ModificationPatch {
  readonly state: ModificationRecord['state']
  readonly pspReference?: string
  readonly errorCode?: string
  readonly updatedAt: string
}

/** A feed record the poller could not apply: kept, retried with backoff, never in the way of later ones. */
export interface PollProblem {
  readonly sequence: number
  /** The feed record as it came (no card data: status, amounts, references, metadata). */
  readonly change: Readonly<Record<string, unknown>>
  /** `UNKNOWN_ORDER`, `NO_ORDER_ID`, `NO_ATTEMPT`, `UNKNOWN_STATUS`, `AMOUNT_MISMATCH`, `CONFLICT`, `STORE_ERROR`... */
  readonly reason: string
  readonly tries: number
  readonly nextTryAt: string
}

/** One feed record applied as a compare-and-set. */
export interface AppliedChange {
  readonly sequence: number
  /** The feed record, kept as a problem should the compare-and-set lose. */
  readonly record: Readonly<Record<string, unknown>>
  readonly attemptId: string
  readonly expectedVersion: number
  readonly patch: AttemptPatch
  /** Queued in the outbox in the same transaction. */
  readonly change?: OrderChange
}

/** A named lease (the poller's: one instance polls at a time): who holds it, until when. */
export interface Lease {
  readonly name: string
  readonly holder: string
  readonly expiresAt: string
}

/** Who must still hold which lease at `now` for a write to commit. */
export interface LeaseClaim {
  readonly name: string
  readonly holder: string
  readonly now: string
}

/** Thrown by a write whose {@link LeaseClaim} no longer holds (expired, or taken by another instance); nothing was written. */
export class LeaseLostError extends Error {
  readonly code = 'LEASE_LOST'
  constructor(name: string) {
    super(`lease ${name}: no longer held by this instance; nothing written`)
    this.name = 'LeaseLostError'
  }
}

/** What one poll commits, in one transaction. */
export interface PollBatch {
  /** When set, the batch commits only while this holder still holds the lease ({@link LeaseLostError} otherwise). */
  readonly lease?: LeaseClaim
  /** The feed's new cursor; absent when only problems are retried. Never moves back. */
  readonly cursor?: number
  readonly applied: readonly AppliedChange[]
  /** Records with nothing to write (already further along, a repeat): marked seen. */
  readonly skipped: readonly number[]
  /** Recorded or re-recorded (tries + 1, next try at `nextTryAt`); not marked seen. */
  readonly problems: readonly Omit<PollProblem, 'tries'>[]
  /** Problems now applied or skipped: removed. */
  readonly resolved: readonly number[]
  readonly at: string
}

export interface PollBatchResult {
  /** Applied entries whose compare-and-set lost (another writer was first): recorded as `CONFLICT` problems. */
  readonly conflicts: readonly number[]
  /** Sequences already seen: nothing written for them. */
  readonly repeats: readonly number[]
}

/**
 * The ledger's storage. Async throughout, and every multi-row write is one store operation (one
 * transaction), so a PostgreSQL store can implement it as well as the embedded SQLite one.
 * `test/store-conformance.ts` is the suite every store must pass.
 */
export interface LedgerStore {
  getSetting(id: string): Promise<string | undefined>
  putSetting(id: string, value: string): Promise<void>
  /** Inserts unless the order already has an attempt with this number: false then (the race's loser re-reads). */
  insertAttempt(attempt: AttemptRecord): Promise<boolean>
  findAttempt(id: string): Promise<AttemptRecord | undefined>
  findAttemptByPspReference(pspReference: string): Promise<AttemptRecord | undefined>
  /** An order's attempts, by number. */
  listAttempts(orderId: string): Promise<AttemptRecord[]>
  /**
   * Writes `patch` and version + 1 when the version is still `expectedVersion`, queueing `change`
   * in the same transaction; else undefined.
   */
  compareAndSet(id: string, expectedVersion: number, patch: AttemptPatch, change?: OrderChange): Promise<AttemptRecord | undefined>
  insertModification(modification: ModificationRecord): Promise<boolean>
  findModification(id: string): Promise<ModificationRecord | undefined>
  updateModification(id: string, expectedVersion: number, patch: ModificationPatch): Promise<ModificationRecord | undefined>
  readCursor(): Promise<number>
  /** Changes, seen sequences, problems and the cursor in one transaction; checks `batch.lease` in it first. */
  applyChangesAndCursor(batch: PollBatch): Promise<PollBatchResult>
  /** Problems due at `now` (all when absent), oldest sequence first. */
  listProblems(now?: string): Promise<PollProblem[]>
  /** Undelivered changes due at `now`, oldest first. */
  dueOutbox(now: string, limit: number): Promise<OutboxEntry[]>
  markDelivered(id: number): Promise<void>
  markDeliveryFailed(id: number, nextTryAt: string): Promise<void>
  /**
   * Takes the lease `name` for `holder` until `now + ttlMs` when it is free, expired at `now`, or
   * already this holder's (a renewal): one compare-and-set. Returns the lease as stored afterwards,
   * so a caller that did not get it learns who holds it and until when.
   */
  acquireLease(name: string, holder: string, ttlMs: number, now: string): Promise<{ readonly acquired: boolean; readonly lease: Lease }>
  /** Gives the lease up if `holder` holds it (a stopped poller); another instance may take it at once. */
  releaseLease(name: string, holder: string): Promise<void>
  close(): Promise<void>
}

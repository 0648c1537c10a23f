import type { AttemptState } from './transitions.js'

/** An amount in minor units (spec: "Payment request", `amount`). */
export interface Money {
  /** ISO 4217 code, e.g. `EUR`. */
  readonly currency: string
  /** Minor units (cents for EUR). */
  readonly value: number
}

/** One payment attempt of an order: one idempotency key, one payment at the service at most. */
export interface AttemptRecord {
  /** `${orderId}:${number}`. */
  readonly id: string
  /** The shop's order id, as text. */
  readonly orderId: string
  /** 1, 2, ...: unique per order, so inserting it is the lock across processes. */
  readonly number: number
  /** Stored before the call; every re-send of this attempt carries it. */
  readonly idempotencyKey: string
  /** Where the payment stands ({@link AttemptState}); moves forward only. */
  readonly state: AttemptState
  /** Bumped by every write; writes are compare-and-set on it. */
  readonly version: number
  /** The order's amount when the attempt was made: what was sent. */
  readonly amount: Money
  /** `scheme`, `ideal`, ...: the service's idempotency covers the method type. */
  readonly methodType: string
  /** SHA-256 of the submitted `paymentMethod`: an identical submission (a double click) gets this attempt's answer. */
  readonly fingerprint: string
  /** The service's last `resultCode` (Authorised, Refused, ChallengeShopper, ...). */
  readonly resultCode?: string | undefined
  /** The service's reference of the payment, once it answered. */
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
  /** Captured so far, minor units (from the feed). */
  readonly capturedValue: number
  /** Refunded so far, minor units (from the feed). */
  readonly refundedValue: number
  /** ISO 8601, when the attempt was stored. */
  readonly createdAt: string
  /** ISO 8601, the last write. */
  readonly updatedAt: string
}

/** What a compare-and-set may change; `null` clears an optional field. */
export interface AttemptPatch {
  /** See {@link AttemptRecord.state}. */
  readonly state?: AttemptState
  /** See {@link AttemptRecord.resultCode}. */
  readonly resultCode?: string | null
  /** See {@link AttemptRecord.pspReference}. */
  readonly pspReference?: string | null
  /** See {@link AttemptRecord.answer}. */
  readonly answer?: Readonly<Record<string, unknown>> | null
  /** See {@link AttemptRecord.detailsStep}. */
  readonly detailsStep?: number
  /** See {@link AttemptRecord.detailsKey}. */
  readonly detailsKey?: string | null
  /** See {@link AttemptRecord.detailsFingerprint}. */
  readonly detailsFingerprint?: string | null
  /** See {@link AttemptRecord.errorCode}. */
  readonly errorCode?: string | null
  /** See {@link AttemptRecord.capturedValue}. */
  readonly capturedValue?: number
  /** See {@link AttemptRecord.refundedValue}. */
  readonly refundedValue?: number
  /** ISO 8601, now: every write sets it. */
  readonly updatedAt: string
}

/** What the shop hears of (its `onOrderChange`): through the outbox, after the commit, retried until it returns. */
export interface OrderChange {
  /** The shop's order id, as text. */
  readonly orderId: string
  /** The attempt's number: an order abandoned at the bank and paid otherwise may have two. */
  readonly attempt: number
  /** The attempt's state now. */
  readonly state: AttemptState
  /** Its state before this change. */
  readonly previousState: AttemptState
  /** The service's `resultCode` behind the change, if any. */
  readonly resultCode?: string | undefined
  /** The payment's reference at the service, once known: keep it with the order. */
  readonly pspReference?: string | undefined
  /** The attempt's amount. */
  readonly amount: Money
  /** Captured so far, minor units. */
  readonly capturedValue: number
  /** Refunded so far, minor units. */
  readonly refundedValue: number
  /**
   * The attempt's version after this change; it only grows. Delivery is at least once, and with
   * several instances an older change can arrive after a newer one: keep the highest version per
   * order and attempt, and ignore a change at or below it. (0 on a change queued before versions.)
   */
  readonly version: number
}

/** An undelivered {@link OrderChange}. */
export interface OutboxEntry {
  /** Increasing: the order changes were queued in. */
  readonly id: number
  /** What the shop is told. */
  readonly change: OrderChange
  /** Failed deliveries so far. */
  readonly tries: number
  /** ISO 8601: not delivered before then (backoff after a failed delivery). */
  readonly nextTryAt: string
}

/**
 * The change a compare-and-set queued, as the store saw it in the same statement: the shop may hear
 * it at once unless an earlier change of its order is still undelivered (then it waits its turn in
 * {@link LedgerStore.dueOutbox}).
 */
export interface QueuedChange {
  /** Its outbox entry. */
  readonly entry: OutboxEntry
  /** An earlier change of the same order was in the outbox, undelivered, when this one was queued. */
  readonly behindEarlier: boolean
}

/** An attempt as a compare-and-set wrote it. */
export interface WrittenAttempt extends AttemptRecord {
  /** The change it queued, when it queued one and the store says so. */
  readonly queued?: QueuedChange
}

/** What a modification does to a payment. */
export type ModificationKind = 'capture' | 'refund' | 'cancel'

/** A capture, refund or cancel: its key stored before the call. */
export interface ModificationRecord {
  /** The merchant's request id (one click), or a generated one. */
  readonly id: string
  /** The shop's order id, as text. */
  readonly orderId: string
  /** The paid attempt it modifies. */
  readonly attemptId: string
  /** Capture, refund or cancel. */
  readonly kind: ModificationKind
  /** For a capture or refund; a cancel has none. */
  readonly amount?: Money | undefined
  /** Stored before the call; a repeat with the same id re-sends it. */
  readonly idempotencyKey: string
  /** `requested`: stored, not answered; `received`: the service took it (the outcome comes through the feed). */
  readonly state: 'requested' | 'received' | 'refused'
  /** Bumped by every write; writes are compare-and-set on it. */
  readonly version: number
  /** The service's reference of the modification, once it answered. */
  readonly pspReference?: string | undefined
  /** From the service's refusal: its error code. */
  readonly errorCode?: string | undefined
  /** ISO 8601, when it was stored. */
  readonly createdAt: string
  /** ISO 8601, the last write. */
  readonly updatedAt: string
}

/** What a compare-and-set of a modification may change. */
export interface ModificationPatch {
  /** See {@link ModificationRecord.state}. */
  readonly state: ModificationRecord['state']
  /** See {@link ModificationRecord.pspReference}. */
  readonly pspReference?: string
  /** See {@link ModificationRecord.errorCode}. */
  readonly errorCode?: string
  /** ISO 8601, now. */
  readonly updatedAt: string
}

/** A feed record the poller could not apply: kept, retried with backoff, never in the way of later ones. */
export interface PollProblem {
  /** The feed record's sequence number. */
  readonly sequence: number
  /** The feed record as it came (no card data: status, amounts, references, metadata). */
  readonly change: Readonly<Record<string, unknown>>
  /** `UNKNOWN_ORDER`, `NO_ORDER_ID`, `NO_ATTEMPT`, `UNKNOWN_STATUS`, `AMOUNT_MISMATCH`, `CONFLICT`, `STORE_ERROR`... */
  readonly reason: string
  /** Tries so far. */
  readonly tries: number
  /** ISO 8601: the next try. */
  readonly nextTryAt: string
}

/** One feed record applied as a compare-and-set. */
export interface AppliedChange {
  /** The feed record's sequence number. */
  readonly sequence: number
  /** The feed record, kept as a problem should the compare-and-set lose. */
  readonly record: Readonly<Record<string, unknown>>
  /** The attempt the record matched. */
  readonly attemptId: string
  /** Its version when the poller read it. */
  readonly expectedVersion: number
  /** What the record changes. */
  readonly patch: AttemptPatch
  /** Queued in the outbox in the same transaction. */
  readonly change?: OrderChange
}

/** A named lease (the poller's: one instance polls at a time): who holds it, until when. */
export interface Lease {
  /** `poller`. */
  readonly name: string
  /** The instance that holds it (a random id per process). */
  readonly holder: string
  /** ISO 8601: free for another instance after this. */
  readonly expiresAt: string
}

/** What {@link LedgerStore.acquireLease} answers. */
export interface LeaseAnswer {
  /** Whether `holder` holds the lease now. */
  readonly acquired: boolean
  /** The lease as stored afterwards: this holder's, or whoever holds it and until when. */
  readonly lease: Lease
}

/** Who must still hold which lease at `now` for a write to commit. */
export interface LeaseClaim {
  /** See {@link Lease.name}. */
  readonly name: string
  /** See {@link Lease.holder}. */
  readonly holder: string
  /** ISO 8601: the lease must not have expired at this time. */
  readonly now: string
}

/** Thrown by a write whose {@link LeaseClaim} no longer holds (expired, or taken by another instance); nothing was written. */
export class LeaseLostError extends Error {
  /** Always `LEASE_LOST`. */
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
  /** Records that change an attempt: each a compare-and-set, its change queued for the shop. */
  readonly applied: readonly AppliedChange[]
  /** Records with nothing to write (already further along, a repeat): marked seen. */
  readonly skipped: readonly number[]
  /** Recorded or re-recorded (tries + 1, next try at `nextTryAt`); not marked seen. */
  readonly problems: readonly Omit<PollProblem, 'tries'>[]
  /** Problems now applied or skipped: removed. */
  readonly resolved: readonly number[]
  /** ISO 8601, now: the time written with seen records and problems. */
  readonly at: string
}

/** What {@link LedgerStore.applyChangesAndCursor} could not write as planned. */
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
  /**
   * Writes `patch` and version + 1 when the version is still `expectedVersion`, queueing `change`
   * in the same transaction; else undefined. A store that says what it queued (`queued`) lets the
   * shop hear the change without reading the outbox again; one that does not is drained instead.
   */
  compareAndSet(id: string, expectedVersion: number, patch: AttemptPatch, change?: OrderChange): Promise<WrittenAttempt | undefined>
  /** Inserts unless a modification with this id exists: false then (a repeated request). */
  insertModification(modification: ModificationRecord): Promise<boolean>
  /** The modification with this id. */
  findModification(id: string): Promise<ModificationRecord | undefined>
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
  /** The change reached the shop: not due again. */
  markDelivered(id: number): Promise<void>
  /** The shop's callback threw: tries + 1, due again at `nextTryAt`. */
  markDeliveryFailed(id: number, nextTryAt: string): Promise<void>
  /**
   * Takes the lease `name` for `holder` until `now + ttlMs` when it is free, expired at `now`, or
   * already this holder's (a renewal): one compare-and-set. Returns the lease as stored afterwards,
   * so a caller that did not get it learns who holds it and until when.
   */
  acquireLease(name: string, holder: string, ttlMs: number, now: string): Promise<LeaseAnswer>
  /** Gives the lease up if `holder` holds it (a stopped poller); another instance may take it at once. */
  releaseLease(name: string, holder: string): Promise<void>
  /** Commits what is queued and closes the connection (or the pool the store made). */
  close(): Promise<void>
}

import type { AttemptState } from '../ledger/transitions.js'

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
  /** The order's `lineItems` as the payment sent them: what a refund by line may name, at the price sent. */
  readonly lineItems?: readonly SentLine[] | undefined
}

/** One line of the order as the payment sent it (payment-validator's `LineItemSchema`). */
export interface SentLine {
  /** The shop's article id: a refund by line names the line by it. */
  readonly id?: string | undefined
  /** What the shopper bought. */
  readonly description?: string | undefined
  /** How many. */
  readonly quantity: number
  /** Price of one, tax included, minor units. */
  readonly amountIncludingTax?: number | undefined
  /** The line's other fields, as sent (tax split and rate). */
  readonly [other: string]: unknown
}

/** One line a refund gives back: the line's `id` in the payment, and how many of it. */
export interface RefundLine {
  /** The line's `id` as the payment sent it. */
  readonly id: string
  /** How many of it, 1 or more. */
  readonly quantity: number
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
  /** See {@link AttemptRecord.methodType}: a method sent under the open attempt's key instead of the first. */
  readonly methodType?: string
  /** See {@link AttemptRecord.fingerprint}: the submission whose answer the attempt now holds. */
  readonly fingerprint?: string
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
  /**
   * Why an attempt ended in `error`, when the service said: its code, as `CARD_DATA_UNDECRYPTABLE` (the
   * card was encrypted with another certificate than the processor's for this account).
   */
  readonly errorCode?: string | undefined
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
  /**
   * `requested`: stored, not answered; `received`: the service took it (the outcome comes through the
   * feed); `refused`: the service said no; `dismissed`: ended by an operator while open, never sent again.
   */
  readonly state: 'requested' | 'received' | 'refused' | 'dismissed'
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
  /** A refund by line: the lines it gives back, sent with its amount on every try under its key. */
  readonly lineItems?: readonly RefundLine[] | undefined
  /**
   * A capture or refund called without an amount: it asked for the rest, so a plain call for the
   * rest repeats it. Undefined in rows stored before the ledger kept it.
   */
  readonly askedForRest?: boolean | undefined
  /**
   * ISO 8601, when it was last sent again (its first send is at `createdAt`): a send may be out for a
   * call's deadline after it, so a dismiss waits. Undefined when never sent again.
   */
  readonly sentAgainAt?: string | undefined
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
  /** See {@link ModificationRecord.sentAgainAt}; absent, it is kept. */
  readonly sentAgainAt?: string
}

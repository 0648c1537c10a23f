import { KNOWN_PAYMENT_STATUSES, type KnownPaymentStatus } from '@card-jwe/service-client'
import type { IdempotencyClaim } from './idempotency.js'
import type { SandboxContext } from './context.js'
import type { Db } from './db.js'

/** Every status a payment of the sandbox can be in: the ones the client knows. */
export const PAYMENT_STATUSES = KNOWN_PAYMENT_STATUSES
export type PaymentStatus = KnownPaymentStatus

/** Every `resultCode` the sandbox answers a payment with. */
export const RESULT_CODES = Object.freeze([
  'Authorised',
  'Refused',
  'Cancelled',
  'RedirectShopper',
  'IdentifyShopper',
  'ChallengeShopper',
] as const)

export interface PaymentRow {
  readonly psp_reference: string
  readonly shop_id: string
  readonly store_id: string
  readonly status: PaymentStatus
  readonly result_code: string
  readonly currency: string
  readonly value: number
  readonly captured: number
  readonly refunded: number
  readonly reference: string | null
  readonly metadata: string
  readonly method_type: string
  readonly card_brand: string | null
  readonly card_last_four: string | null
  /** "MM/YYYY", kept to store the card as a method once the payment is authorised. */
  readonly card_expiry: string | null
  /** 'none', 'frictionless', 'challenge' for cards; 'redirect' for redirect methods. */
  readonly flow: string
  readonly transaction_id: string | null
  readonly acs_result: string | null
  readonly refusal_reason: string | null
  readonly return_origin: string
  readonly return_url: string
  readonly shopper_reference: string | null
  readonly store_method: number
}

/** A change of a payment as updated-payments lists it, with the payment's fields the answer shows. */
export interface EventRow {
  readonly sequence: number
  readonly psp_reference: string
  readonly status: string
  readonly captured: number
  readonly refunded: number
  readonly changed_at: string
  readonly result_code: string
  readonly currency: string
  readonly value: number
  readonly reference: string | null
  readonly metadata: string
}

/** A card a shopper asked to keep, as checkout-payment-methods lists it. */
export interface StoredMethodRow {
  readonly id: string
  readonly brand: string
  readonly last_four: string
  readonly expiry_month: string
  readonly expiry_year: string
}

/** The first answer given under an idempotency key, with what the key named. */
export interface IdempotentAnswerRow {
  readonly idempotency_fingerprint: string
  readonly idempotent_answer: string
}

/** A payment's changes, its modifications, the methods it stored and its erasure, with their SQL. */
export type PaymentStore = ReturnType<typeof createPaymentStore>

/** Prepares every statement once, when the sandbox starts. */
export function createPaymentStore(db: Db) {
  const byPspReference = db.prepare('SELECT * FROM payments WHERE psp_reference = ?')
  const byTransactionId = db.prepare('SELECT * FROM payments WHERE transaction_id = ?')
  const insertEvent = db.prepare(
    'INSERT INTO events (shop_id, psp_reference, status, captured, refunded, changed_at) VALUES (?, ?, ?, ?, ?, ?)',
  )
  const insertPayment = db.prepare(
    `INSERT INTO payments (psp_reference, shop_id, store_id, status, result_code, currency, value, captured, refunded,
       reference, metadata, method_type, card_brand, card_last_four, card_expiry, flow, transaction_id, acs_result,
       refusal_reason, return_origin, return_url, shopper_reference, store_method, idempotency_key,
       idempotency_fingerprint, idempotent_answer, created_at, updated_at)
     VALUES (@psp_reference, @shop_id, @store_id, @status, @result_code, @currency, @value, @captured, @refunded,
       @reference, @metadata, @method_type, @card_brand, @card_last_four, @card_expiry, @flow, @transaction_id, @acs_result,
       @refusal_reason, @return_origin, @return_url, @shopper_reference, @store_method, @idempotency_key,
       @idempotency_fingerprint, @idempotent_answer, @now, @now)`,
  )
  // An update names only the columns it changes; the handlers change a few fixed sets of them, so
  // each set's statement is prepared the first time it is used and kept.
  const updates = new Map<string, ReturnType<Db['prepare']>>()
  const updateOf = (columns: readonly string[]) => {
    const key = columns.join(',')
    let statement = updates.get(key)
    if (!statement) {
      const assignments = columns.map((c) => `${c} = @${c}`).join(', ')
      statement = db.prepare(`UPDATE payments SET ${assignments}, updated_at = @updated_at WHERE psp_reference = @psp_reference`)
      updates.set(key, statement)
    }
    return statement
  }
  const insertModification = db.prepare(
    `INSERT INTO modifications (psp_reference, payment_psp_reference, kind, currency, value, idempotency_key,
       idempotency_fingerprint, idempotent_answer, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const answers = {
    payments: db.prepare('SELECT idempotency_fingerprint, idempotent_answer FROM payments WHERE idempotency_key = ?'),
    modifications: db.prepare('SELECT idempotency_fingerprint, idempotent_answer FROM modifications WHERE idempotency_key = ?'),
  }
  const eventOfShop = db.prepare('SELECT 1 FROM events WHERE shop_id = ? AND sequence = ?')
  const eventsAfter = db.prepare(
    `SELECT e.sequence, e.psp_reference, e.status, e.captured, e.refunded, e.changed_at,
       p.result_code, p.currency, p.value, p.reference, p.metadata
     FROM events e JOIN payments p ON p.psp_reference = e.psp_reference
     WHERE e.shop_id = ? AND e.sequence > ? ORDER BY e.sequence LIMIT ?`,
  )
  const storedMethodsOf = db.prepare(
    `SELECT id, brand, last_four, expiry_month, expiry_year FROM stored_methods
     WHERE shop_id = ? AND shopper_reference = ? AND disabled = 0 ORDER BY created_at`,
  )
  const storedMethodOf = db.prepare(
    `SELECT id, brand, last_four, expiry_month, expiry_year FROM stored_methods
     WHERE id = ? AND shop_id = ? AND shopper_reference = ? AND disabled = 0`,
  )
  const insertStoredMethod = db.prepare(
    `INSERT INTO stored_methods (id, shop_id, store_id, shopper_reference, brand, last_four, expiry_month, expiry_year, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const disableStoredMethod = db.prepare(
    'UPDATE stored_methods SET disabled = 1 WHERE id = ? AND shop_id = ? AND shopper_reference = ? AND disabled = 0',
  )
  const forgetShopper = db.prepare('UPDATE payments SET shopper_reference = NULL, card_last_four = NULL WHERE psp_reference = ?')
  const insertErasure = db.prepare('INSERT OR IGNORE INTO erasures (psp_reference, requested_at) VALUES (?, ?)')
  const eraseShopper = db.transaction((pspReference: string, requestedAt: string) => {
    forgetShopper.run(pspReference)
    insertErasure.run(pspReference, requestedAt)
  })

  return {
    find(where: 'psp_reference' | 'transaction_id', value: string): PaymentRow | undefined {
      return (where === 'psp_reference' ? byPspReference : byTransactionId).get(value) as PaymentRow | undefined
    },
    /** Records that a payment changed, with its state at that moment, for updated-payments. */
    recordEvent(row: Pick<PaymentRow, 'shop_id' | 'psp_reference' | 'status' | 'captured' | 'refunded'>, changedAt: string): void {
      insertEvent.run(row.shop_id, row.psp_reference, row.status, row.captured, row.refunded, changedAt)
    },
    insert(row: PaymentRow & IdempotencyColumns & { now: string }): void {
      insertPayment.run(row)
    },
    update(pspReference: string, changes: Partial<PaymentRow>, updatedAt: string): void {
      updateOf(Object.keys(changes)).run({ ...changes, psp_reference: pspReference, updated_at: updatedAt })
    },
    insertModification(
      row: { psp_reference: string; payment_psp_reference: string; kind: string; currency: string | null; value: number | null },
      idempotency: IdempotencyColumns,
      createdAt: string,
    ): void {
      insertModification.run(
        row.psp_reference,
        row.payment_psp_reference,
        row.kind,
        row.currency,
        row.value,
        idempotency.idempotency_key,
        idempotency.idempotency_fingerprint,
        idempotency.idempotent_answer,
        createdAt,
      )
    },
    /** The first answer under this shop-scoped key, on a payment or a modification. */
    answerFor(table: 'payments' | 'modifications', scope: string): IdempotentAnswerRow | undefined {
      return answers[table].get(scope) as IdempotentAnswerRow | undefined
    },
    /** Whether `sequence` is a change of this shop's, so a cursor it was handed. */
    issuedCursor(shopId: string, sequence: number): boolean {
      return eventOfShop.get(shopId, sequence) !== undefined
    },
    eventsAfter(shopId: string, after: number, limit: number): EventRow[] {
      return eventsAfter.all(shopId, after, limit) as EventRow[]
    },
    storedMethodsOf(shopId: string, shopperReference: string): StoredMethodRow[] {
      return storedMethodsOf.all(shopId, shopperReference) as StoredMethodRow[]
    },
    /** One active saved card of this shopper of this shop: undefined alike for another's, an unknown and a removed one. */
    storedMethodOf(id: string, shopId: string, shopperReference: string): StoredMethodRow | undefined {
      return storedMethodOf.get(id, shopId, shopperReference) as StoredMethodRow | undefined
    },
    insertStoredMethod(
      row: Omit<StoredMethodRow, 'id'> & { shop_id: string; store_id: string; shopper_reference: string },
      id: string,
      createdAt: string,
    ): void {
      insertStoredMethod.run(
        id,
        row.shop_id,
        row.store_id,
        row.shopper_reference,
        row.brand,
        row.last_four,
        row.expiry_month,
        row.expiry_year,
        createdAt,
      )
    },
    /** Disables one active method of one shopper; false when there was none to disable. */
    disableStoredMethod(id: string, shopId: string, shopperReference: string): boolean {
      return disableStoredMethod.run(id, shopId, shopperReference).changes > 0
    },
    /** Forgets the shopper of a payment and records the request, in one transaction. */
    eraseShopper(pspReference: string, requestedAt: string): void {
      eraseShopper(pspReference, requestedAt)
    },
  }
}

interface IdempotencyColumns {
  readonly idempotency_key: string | null
  readonly idempotency_fingerprint: string | null
  readonly idempotent_answer: string | null
}

export function findPayment(context: SandboxContext, where: 'psp_reference' | 'transaction_id', value: string): PaymentRow | undefined {
  return context.payments.find(where, value)
}

/** With a claim, the key, its fingerprint and the answer commit in the same INSERT as the payment. */
export function insertPayment(context: SandboxContext, row: PaymentRow, idempotency?: IdempotencyClaim & { answer: unknown }): void {
  const now = context.now().toISOString()
  const claim = {
    idempotency_key: idempotency?.scope ?? null,
    idempotency_fingerprint: idempotency?.fingerprint ?? null,
    idempotent_answer: idempotency ? JSON.stringify(idempotency.answer) : null,
  }
  context.db.transaction(() => {
    context.payments.insert({ ...row, ...claim, now })
    context.payments.recordEvent(row, context.now().toISOString())
  })()
}

/**
 * Changes a payment in one transaction; a change of status or amounts is also recorded for
 * updated-payments (an internal note such as the ACS answer is not a change a shop polls for).
 */
export function updatePayment(context: SandboxContext, row: PaymentRow, changes: Partial<PaymentRow>): PaymentRow {
  const next = { ...row, ...changes }
  const visible = next.status !== row.status || next.captured !== row.captured || next.refunded !== row.refunded
  context.db.transaction(() => {
    context.payments.update(row.psp_reference, changes, context.now().toISOString())
    if (visible) context.payments.recordEvent(next, context.now().toISOString())
  })()
  return next
}

/** The response fields every payment answer carries: pspReference, merchantReference, metadata echoed. */
export function paymentAnswer(row: PaymentRow, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    pspReference: row.psp_reference,
    resultCode: row.result_code,
    ...(row.reference ? { merchantReference: row.reference } : {}),
    metadata: JSON.parse(row.metadata) as unknown,
    ...(row.refusal_reason ? { refusalReason: row.refusal_reason } : {}),
    ...extra,
  }
}

/** The final answer of a payment: its amount unless refused. */
export function finalAnswerOf(row: PaymentRow): Record<string, unknown> {
  return paymentAnswer(row, row.status === 'refused' ? {} : { amount: { currency: row.currency, value: row.value } })
}

import * as z from 'zod'
import { keyForMessage, stringMatching } from '@card-jwe/payment-validator'
import { runDueCaptures } from '../capture-timing.js'
import { SandboxError } from '../errors.js'
import { json } from '../http/json.js'
import type { SandboxContext } from '../context.js'
import type { Db } from '../db.js'
import type { RequestContext } from '../http/handler.js'
import { PAYMENT_STATUSES, RESULT_CODES } from '../payment-store.js'

/** At most this many payments in one answer of GET /sandbox/payments; `count` still counts them all. */
export const SANDBOX_PAYMENTS_MAX_LIMIT = 1000

/** An amount in minor units, as GET /sandbox/payments lists it. */
export interface SandboxAmount {
  /** ISO 4217 code. */
  readonly currency: string
  /** In minor units (cents). */
  readonly value: number
}

/** How a payment was paid, as GET /sandbox/payments lists it: never a card number. */
export interface SandboxPaymentMethod {
  /** `scheme` (a card), `ideal` or `klarna`. */
  readonly type: string
  /** A card's brand (`visa`, `mastercard`…). */
  readonly brand?: string
  /** A card's last four digits (until a subject erasure forgets them). */
  readonly lastFour?: string
}

/** A capture, refund or cancel of a payment, as GET /sandbox/payments lists it. */
export interface SandboxModification {
  /** The modification's own reference. */
  readonly pspReference: string
  /** `capture`, `refund` or `cancel`. */
  readonly kind: string
  /** What it moved; absent for a cancel. */
  readonly amount?: SandboxAmount
  /** When the sandbox received it (ISO 8601). */
  readonly createdAt: string
}

/** A payment the sandbox holds, as GET /sandbox/payments lists it: no card number, no security code. */
export interface SandboxPayment {
  /** The payment's reference at the service. */
  readonly pspReference: string
  /** The shop that made it. */
  readonly shopId: string
  /** The store it was made in. */
  readonly storeId: string
  /** The payment request's `reference` (the shop's order reference). */
  readonly reference: string | null
  /** `authorised`, `captured`, `refused`, `redirect_shopper`…: the sandbox's state of the payment now. */
  readonly status: string
  /** The `resultCode` of its latest answer: `Authorised`, `Refused`, `Cancelled`, `RedirectShopper`… */
  readonly resultCode: string
  /** Why it was refused, when it was. */
  readonly refusalReason: string | null
  /** The amount asked for. */
  readonly amount: SandboxAmount
  /** Captured so far, in minor units of the same currency. */
  readonly capturedValue: number
  /** Refunded so far, in minor units of the same currency. */
  readonly refundedValue: number
  /** The method: `scheme` (a card, with its brand and last four digits), `ideal` or `klarna`. */
  readonly paymentMethod: SandboxPaymentMethod
  /** The payment request's `metadata` (the shop's `shop_order_id`, …). */
  readonly metadata: Readonly<Record<string, unknown>>
  /** Its captures, refunds and cancels, oldest first. */
  readonly modifications: readonly SandboxModification[]
  /** When the sandbox received it (ISO 8601). */
  readonly createdAt: string
  /** Its last change (ISO 8601). */
  readonly updatedAt: string
}

/** The answer of GET /sandbox/payments. */
export interface SandboxPaymentsAnswer {
  /** How many payments match the filters, all of them (not only those listed). */
  readonly count: number
  /** The matching payments, newest first, at most `limit`. */
  readonly payments: readonly SandboxPayment[]
}

const text = (max: number) => z.string().min(1).max(max)
const QuerySchema = z.strictObject({
  shopId: text(64).optional(),
  storeId: text(64).optional(),
  reference: text(80).optional(),
  // A misspelt value would count nothing, and "charged at most once" would pass on it.
  status: z.enum(PAYMENT_STATUSES, { error: `one of ${PAYMENT_STATUSES.join(', ')}` }).optional(),
  resultCode: z.enum(RESULT_CODES, { error: `one of ${RESULT_CODES.join(', ')}` }).optional(),
  limit: stringMatching(/^\d{1,4}$/, `a whole number from 1 to ${SANDBOX_PAYMENTS_MAX_LIMIT}`)
    .transform(Number)
    .pipe(z.number().min(1).max(SANDBOX_PAYMENTS_MAX_LIMIT))
    .optional(),
})

interface ListedRow {
  readonly psp_reference: string
  readonly shop_id: string
  readonly store_id: string
  readonly reference: string | null
  readonly status: string
  readonly result_code: string
  readonly refusal_reason: string | null
  readonly currency: string
  readonly value: number
  readonly captured: number
  readonly refunded: number
  readonly method_type: string
  readonly card_brand: string | null
  readonly card_last_four: string | null
  readonly metadata: string
  readonly modifications: string
  readonly created_at: string
  readonly updated_at: string
}

/** Each filter matches when it is NULL (not given) or equal. */
const WHERE = `(@shopId IS NULL OR p.shop_id = @shopId) AND (@storeId IS NULL OR p.store_id = @storeId)
  AND (@reference IS NULL OR p.reference = @reference) AND (@status IS NULL OR p.status = @status)
  AND (@resultCode IS NULL OR p.result_code = @resultCode)`

/** The two statements, prepared once per database. */
const statements = new WeakMap<Db, { count: ReturnType<Db['prepare']>; list: ReturnType<Db['prepare']> }>()
function statementsOf(db: Db) {
  let prepared = statements.get(db)
  if (!prepared) {
    prepared = {
      count: db.prepare(`SELECT count(*) AS n FROM payments p WHERE ${WHERE}`),
      list: db.prepare(
        `SELECT p.psp_reference, p.shop_id, p.store_id, p.reference, p.status, p.result_code, p.refusal_reason, p.currency,
           p.value, p.captured, p.refunded, p.method_type, p.card_brand, p.card_last_four, p.metadata, p.created_at, p.updated_at,
           (SELECT json_group_array(json_object('pspReference', m.psp_reference, 'kind', m.kind, 'currency', m.currency,
              'value', m.value, 'createdAt', m.created_at) ORDER BY m.created_at, m.rowid)
            FROM modifications m WHERE m.payment_psp_reference = p.psp_reference) AS modifications
         FROM payments p WHERE ${WHERE} ORDER BY p.created_at DESC, p.rowid DESC LIMIT @limit`,
      ),
    }
    statements.set(db, prepared)
  }
  return prepared
}

function paymentOf(row: ListedRow): SandboxPayment {
  const modifications = JSON.parse(row.modifications) as Array<{
    pspReference: string
    kind: string
    currency: string | null
    value: number | null
    createdAt: string
  }>
  return {
    pspReference: row.psp_reference,
    shopId: row.shop_id,
    storeId: row.store_id,
    reference: row.reference,
    status: row.status,
    resultCode: row.result_code,
    refusalReason: row.refusal_reason,
    amount: { currency: row.currency, value: row.value },
    capturedValue: row.captured,
    refundedValue: row.refunded,
    paymentMethod: {
      type: row.method_type,
      ...(row.card_brand ? { brand: row.card_brand } : {}),
      ...(row.card_last_four ? { lastFour: row.card_last_four } : {}),
    },
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    modifications: modifications.map(({ currency, value, ...rest }) => ({
      ...rest,
      ...(currency !== null && value !== null ? { amount: { currency, value } } : {}),
    })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/**
 * GET /sandbox/payments (sandbox only, unsigned, loopback, read-only): the payments the sandbox
 * holds, newest first, filtered by `shopId`, `storeId`, `reference`, `status`, `resultCode` (each
 * optional, all must match), at most `limit` (1-1000, default 100); `count` counts every match. A
 * shop's tests count payments here ("charged once") without reading the sandbox's database. An
 * unknown parameter is refused rather than ignored: a misspelt filter would count everything.
 */
export function sandboxPayments(c: RequestContext, context: SandboxContext): Response {
  // The state now: delayed captures due by the sandbox's clock have happened.
  runDueCaptures(context)
  const query = c.req.queries()
  const single = Object.fromEntries(Object.entries(query).map(([name, values]) => [name, values.length === 1 ? values[0] : values]))
  const parsed = QuerySchema.safeParse(single)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    // An unknown name is the caller's text (a card number may be one): shown only when it is a plain name.
    const field = issue.code === 'unrecognized_keys' ? issue.keys.map(keyForMessage).join(', ') : issue.path.join('.')
    throw new SandboxError('INVALID_REQUEST', `query: ${field}: ${issue.code === 'unrecognized_keys' ? 'not a filter' : issue.message}`)
  }
  const { limit = 100, ...filters } = parsed.data
  const params = {
    shopId: filters.shopId ?? null,
    storeId: filters.storeId ?? null,
    reference: filters.reference ?? null,
    status: filters.status ?? null,
    resultCode: filters.resultCode ?? null,
  }
  const { count, list } = statementsOf(context.db)
  const answer: SandboxPaymentsAnswer = {
    count: (count.get(params) as { n: number }).n,
    payments: (list.all({ ...params, limit }) as ListedRow[]).map(paymentOf),
  }
  return json(answer)
}

/**
 * An order's payments as the admin sees them: every attempt and its modifications, each field named
 * here. Built field by field from the ledger, never by spreading a record, so nothing the service
 * answered reaches the admin unless it is listed: about a card, its brand and last four at most.
 */
import type { BackendContext } from '../backend-context.js'
import type { AttemptRecord, ModificationRecord, Money, RefundLine } from '../store/ledger-store.js'
import { attemptsOfOrder } from './attempts.js'
import type { AttemptState } from './transitions.js'

/** About a card, what the admin may see: the brand and the last four digits, when the service's answer named them. */
export interface CardSummary {
  /** The scheme (`visa`, `mc`, ...). */
  readonly brand?: string
  /** The last four digits of the card number. */
  readonly lastFour?: string
}

/** One payment attempt of the order. */
export interface AdminAttempt {
  /** 1, 2, ...: the order's attempts in turn. */
  readonly number: number
  /** Where the payment stands. */
  readonly state: AttemptState
  /** What was sent. */
  readonly amount: Money
  /** Captured so far, minor units (from the feed). */
  readonly capturedValue: number
  /** Refunded so far, minor units (from the feed). */
  readonly refundedValue: number
  /** The service's reference of the payment, once it answered. */
  readonly pspReference?: string
  /** The service's last `resultCode`. */
  readonly resultCode?: string
  /** `scheme`, `ideal`, ... */
  readonly methodType: string
  /** The service's refusal code, if it refused. */
  readonly errorCode?: string
  /** Brand and last four, when known. */
  readonly card?: CardSummary
  /** The order's lines as the payment sent them (what a refund by line may name). */
  readonly lineItems?: AdminLine[]
  /** ISO 8601, when the attempt was stored. */
  readonly createdAt: string
  /** ISO 8601, its last change. */
  readonly updatedAt: string
}

/** One capture, refund or cancel. */
export interface AdminModification {
  /** The click's `requestId` (or the one made for a call without). */
  readonly requestId: string
  /** The attempt it modifies. */
  readonly attempt: number
  /** Capture, refund or cancel. */
  readonly kind: ModificationRecord['kind']
  /** `requested` (outcome unknown: repeat it), `received`, `refused`, or `dismissed` (by an operator, never sent again). */
  readonly state: ModificationRecord['state']
  /** What was asked for (capture and refund). */
  readonly amount?: Money
  /** A refund by line: the lines it gives back. */
  readonly lineItems?: RefundLine[]
  /** The service's reference of the modification. */
  readonly pspReference?: string
  /** The service's refusal code, if it refused (a dismissed one keeps the last it had). */
  readonly errorCode?: string
  /** ISO 8601, when it was stored. */
  readonly createdAt: string
  /** ISO 8601, its last change. */
  readonly updatedAt: string
}

/** One line of the order as its payment sent it. */
export interface AdminLine {
  /** The line's id: a refund by line names it. */
  readonly id?: string
  /** What the shopper bought. */
  readonly description?: string
  /** How many. */
  readonly quantity: number
  /** Price of one, tax included, minor units. */
  readonly amountIncludingTax?: number
}

/** The answer of the admin's GET order. */
export interface AdminOrderView {
  /** The shop's order id, as text. */
  readonly orderId: string
  /** Its attempts, by number. */
  readonly attempts: AdminAttempt[]
  /** Their captures, refunds and cancels, oldest first. */
  readonly modifications: AdminModification[]
}

const BRAND = /^[A-Za-z0-9_-]{1,32}$/
const LAST_FOUR = /^\d{4}$/

/** Brand and last four from the stored answer's `paymentMethod`, each only in its expected shape. */
export function cardSummaryOf(answer: AttemptRecord['answer']): CardSummary | undefined {
  const method = answer?.paymentMethod
  if (typeof method !== 'object' || method === null) return undefined
  const { brand, lastFour } = method as { brand?: unknown; lastFour?: unknown }
  const summary = {
    ...(typeof brand === 'string' && BRAND.test(brand) ? { brand } : {}),
    ...(typeof lastFour === 'string' && LAST_FOUR.test(lastFour) ? { lastFour } : {}),
  }
  return Object.keys(summary).length > 0 ? summary : undefined
}

const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, V>))

function attemptView(a: AttemptRecord): AdminAttempt {
  return {
    number: a.number,
    state: a.state,
    amount: { currency: a.amount.currency, value: a.amount.value },
    capturedValue: a.capturedValue,
    refundedValue: a.refundedValue,
    ...optional('pspReference', a.pspReference),
    ...optional('resultCode', a.resultCode),
    methodType: a.methodType,
    ...optional('errorCode', a.errorCode),
    ...optional('card', cardSummaryOf(a.answer)),
    ...optional(
      'lineItems',
      a.lineItems?.map((l) => ({
        ...optional('id', l.id),
        ...optional('description', l.description),
        quantity: l.quantity,
        ...optional('amountIncludingTax', l.amountIncludingTax),
      })),
    ),
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  }
}

function modificationView(m: ModificationRecord, attempt: number): AdminModification {
  return {
    requestId: m.id,
    attempt,
    kind: m.kind,
    state: m.state,
    ...optional('amount', m.amount && { currency: m.amount.currency, value: m.amount.value }),
    ...optional(
      'lineItems',
      m.lineItems?.map((l) => ({ id: l.id, quantity: l.quantity })),
    ),
    ...optional('pspReference', m.pspReference),
    ...optional('errorCode', m.errorCode),
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  }
}

/** The order's attempts and modifications; `ORDER_NOT_FOUND` when the ledger holds no payment for it. */
export async function orderView(context: BackendContext, orderId: string): Promise<AdminOrderView> {
  const attempts = await attemptsOfOrder(context, orderId)
  const modifications: AdminModification[] = []
  for (const a of attempts) for (const m of await context.store.listModifications(a.id)) modifications.push(modificationView(m, a.number))
  modifications.sort((x, y) => (x.createdAt < y.createdAt ? -1 : x.createdAt > y.createdAt ? 1 : 0))
  return { orderId, attempts: attempts.map(attemptView), modifications }
}

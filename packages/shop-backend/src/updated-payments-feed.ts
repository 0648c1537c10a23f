// The updated-payments feed as the back end reads it: its records and pages, whatever port gives them.
import { type Amount, SHOP_ORDER_ID_KEY } from '@card-jwe/payment-validator'

/** One record of the updated-payments feed, as far as the back end reads it. */
export interface FeedRecord {
  /** Increasing per record: the cursor, and how repeats are recognised. */
  readonly sequence: number
  /** The payment the record is about. */
  readonly pspReference: string
  /** The payment's status now (authorised, captured, refused, ...). */
  readonly status: string
  /** The payment's amount. */
  readonly amount: Amount
  /** Captured so far. */
  readonly capturedAmount: Amount
  /** Refunded so far. */
  readonly refundedAmount: Amount
  /** What the shop sent with the payment, echoed: `shop_order_id` matches it to the order. Absent: a payment made outside the shop. */
  readonly metadata?: Readonly<Record<string, unknown>>
  readonly [other: string]: unknown
}

/** The shop's order id a feed record echoes (`metadata.shop_order_id`), as text; undefined when it has none. */
export function orderIdOfRecord(record: { readonly metadata?: unknown }): string | undefined {
  const raw = (record.metadata as Readonly<Record<string, unknown>> | undefined)?.[SHOP_ORDER_ID_KEY]
  return (typeof raw === 'string' || typeof raw === 'number') && String(raw) !== '' ? String(raw) : undefined
}

/** One page of the feed. */
export interface FeedPage {
  /** The records after the cursor asked for, oldest first. */
  readonly payments: readonly FeedRecord[]
  /**
   * Records of the page that the port could not read (the service client's, each with at least its
   * `sequence`): each is kept as a poll problem, `UNREADABLE_RECORD`, so it never holds up the feed.
   */
  readonly unreadable?: ReadonlyArray<{
    /** Its position in the feed. */
    readonly sequence: number
    /** The record as sent: kept with the problem. */
    readonly record: Readonly<Record<string, unknown>>
  }>
  /** Where the next page starts. */
  readonly cursor: number
  /** True when more records wait after this page. */
  readonly hasMore: boolean
}

/** Every record of a page, the ones the port could not read too, in feed order: each is news, read or not. */
export function recordsOf(page: FeedPage): FeedRecord[] {
  if (!page.unreadable?.length) return [...page.payments]
  const records = [...page.payments, ...(page.unreadable.map((u) => u.record) as FeedRecord[])]
  return records.sort((a, b) => a.sequence - b.sequence)
}

import { issuesOf, MISSING_AS_REQUIRED } from './lib/issues.js'
import { PaymentSubmissionSchema, type PaymentSubmission } from './schemas/submission.js'
import type { Amount } from './schemas/amount.js'
import type { PaymentRequest } from './schemas/payment-request.js'

/** The shop's own record of an order: the only source of amount, currency and reference. */
export interface OrderRecord {
  /** The shop's order id; sent as `metadata.shop_order_id`. */
  readonly id: number | string
  /** The shop's order reference; sent as `reference`. */
  readonly reference: string
  /** What the order costs, in minor units. */
  readonly amount: Amount
  /**
   * The shop's own id of the shopper, sent as `shopperReference` (3-256 characters): with the page's
   * `storePaymentMethod`, the service saves the card for this shopper; a saved card the page names
   * must be this shopper's. From the shop's records, never the page.
   */
  readonly shopperReference?: string
  /** The shopper's email address, sent as `shopperEmail` (a buy-now-pay-later method needs it). */
  readonly shopperEmail?: string
  /** The shopper's billing address, sent as `billingAddress` (a buy-now-pay-later method needs its country). */
  readonly billingAddress?: NonNullable<PaymentRequest['billingAddress']>
  /**
   * The order's lines, sent as `lineItems`, amounts in minor units: a buy-now-pay-later method needs
   * `quantity * amountIncludingTax` to add up to `amount.value`.
   */
  readonly lineItems?: NonNullable<PaymentRequest['lineItems']>
  /** When this order's money is taken (`captureDelayHours`), over the shop's default: 0 at once, n hours later. */
  readonly captureDelayHours?: number
}

/** Saving a card and paying with a saved one both name the order's shopper. */
const NEEDS_A_SHOPPER = 'needs a shopper: the order has no shopperReference'

/** The fields the page repeats and the backend compares with its own record. */
export type ComparedField = 'amount.value' | 'amount.currency' | 'reference'

/** One thing wrong with a submission. */
export type SubmissionProblem =
  /** The submission breaks its schema here (a float amount, an unknown currency, an extra field...). */
  | {
      /** A schema break. */
      readonly kind: 'invalid'
      /** Where: "amount.value". */
      readonly path: string
      /** Which rule, in words. */
      readonly rule: string
    }
  /**
   * The page says something else than the order record. The page's value is not repeated: a shopper
   * can type anything into a field a tampered page sends (a card number in `reference`).
   */
  | {
      /** A difference from the order record. */
      readonly kind: 'mismatch'
      /** Which field differs. */
      readonly field: ComparedField
      /** Which rule, in words: "must equal the order's amount.value". */
      readonly rule: string
      /** The order record's value (the shop's own data, for its logs; not for the page). */
      readonly expected: number | string
    }

/** The outcome of {@link checkSubmission}. */
export type SubmissionCheck =
  | {
      /** Nothing wrong: the submission may become a payment request. */
      readonly ok: true
      /** The parsed submission. */
      readonly submission: PaymentSubmission
    }
  | {
      /** At least one problem. */
      readonly ok: false
      /** Every problem found. */
      readonly problems: readonly SubmissionProblem[]
    }

/**
 * The trust boundary (spec: Front-end contract 3, 4, 7): checks the page's submission against the
 * shop's order record and reports every problem, schema breaks and mismatches of amount, currency
 * and reference alike. Only an `ok` submission may be turned into a payment request.
 */
export function checkSubmission(input: unknown, order: OrderRecord): SubmissionCheck {
  const problems: SubmissionProblem[] = []
  const parsed = PaymentSubmissionSchema.safeParse(input, MISSING_AS_REQUIRED)
  if (!parsed.success) for (const issue of issuesOf(parsed.error)) problems.push({ kind: 'invalid', ...issue })

  const raw = (typeof input === 'object' && input !== null ? input : {}) as {
    amount?: { value?: unknown; currency?: unknown }
    reference?: unknown
  }
  const compared: Array<[ComparedField, number | string, unknown]> = [
    ['amount.value', order.amount.value, raw.amount?.value],
    ['amount.currency', order.amount.currency, raw.amount?.currency],
    ['reference', order.reference, raw.reference],
  ]
  for (const [field, expected, value] of compared) {
    if (value !== expected) problems.push({ kind: 'mismatch', field, rule: `must equal the order's ${field}`, expected })
  }
  // A saved card is the shopper's: the service checks its id against the record's shopperReference.
  if (parsed.success && 'storedPaymentMethodId' in parsed.data.paymentMethod && order.shopperReference === undefined) {
    problems.push({
      kind: 'invalid',
      path: 'paymentMethod.storedPaymentMethodId',
      rule: NEEDS_A_SHOPPER,
    })
  }
  // A card saved for nobody: the service would take the payment and keep no card, the shopper never told.
  if (parsed.success && parsed.data.storePaymentMethod === true && order.shopperReference === undefined) {
    problems.push({ kind: 'invalid', path: 'storePaymentMethod', rule: NEEDS_A_SHOPPER })
  }
  return problems.length === 0 && parsed.success ? { ok: true, submission: parsed.data } : { ok: false, problems }
}

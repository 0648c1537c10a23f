import { issuesOf } from './lib/issues.js'
import { PaymentSubmissionSchema, type PaymentSubmission } from './schemas/submission.js'
import type { Amount } from './schemas/amount.js'

/** The shop's own record of an order: the only source of amount, currency and reference. */
export interface OrderRecord {
  readonly id: number | string
  readonly reference: string
  readonly amount: Amount
}

/** The fields the page repeats and the backend compares with its own record. */
export type ComparedField = 'amount.value' | 'amount.currency' | 'reference'

export type SubmissionProblem =
  /** The submission breaks its schema here (a float amount, an unknown currency, an extra field...). */
  | { readonly kind: 'invalid'; readonly path: string; readonly rule: string }
  /** The page says something else than the order record. Amounts and references are not card data. */
  | { readonly kind: 'mismatch'; readonly field: ComparedField; readonly expected: number | string; readonly received: number | string | null }

export type SubmissionCheck =
  | { readonly ok: true; readonly submission: PaymentSubmission }
  | { readonly ok: false; readonly problems: readonly SubmissionProblem[] }

function received(value: unknown): number | string | null {
  if (typeof value === 'number') return value
  // Whatever the page sent is shown shortened: enough to see a tamper, never a whole payload.
  return typeof value === 'string' ? value.slice(0, 80) : null
}

/**
 * The trust boundary (spec: Front-end contract 3, 4, 7): checks the page's submission against the
 * shop's order record and reports every problem, schema breaks and mismatches of amount, currency
 * and reference alike. Only an `ok` submission may be turned into a payment request.
 */
export function checkSubmission(input: unknown, order: OrderRecord): SubmissionCheck {
  const problems: SubmissionProblem[] = []
  const parsed = PaymentSubmissionSchema.safeParse(input)
  if (!parsed.success) for (const issue of issuesOf(parsed.error)) problems.push({ kind: 'invalid', ...issue })

  const raw = (typeof input === 'object' && input !== null ? input : {}) as { amount?: { value?: unknown; currency?: unknown }; reference?: unknown }
  const compared: Array<[ComparedField, number | string, unknown]> = [
    ['amount.value', order.amount.value, raw.amount?.value],
    ['amount.currency', order.amount.currency, raw.amount?.currency],
    ['reference', order.reference, raw.reference],
  ]
  for (const [field, expected, value] of compared) {
    if (value !== expected) problems.push({ kind: 'mismatch', field, expected, received: received(value) })
  }
  return problems.length === 0 && parsed.success ? { ok: true, submission: parsed.data } : { ok: false, problems }
}

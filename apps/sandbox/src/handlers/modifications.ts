import { CaptureRequestSchema, RefundRequestSchema } from '@card-jwe/payment-validator'
import { runDueCaptures } from '../capture-timing.js'
import { linesAfterRefund } from './refund-lines.js'
import { authenticate } from '../authenticate.js'
import { notFound, SandboxError } from '../errors.js'
import { validBody } from '../http/parse-body.js'
import { json } from '../http/json.js'
import { newPspReference } from '../lib/ids.js'
import { claimOf, replay, type IdempotencyClaim } from '../idempotency.js'
import { findPayment, updatePayment, type PaymentRow, type PaymentStatus } from '../payment-store.js'
import type { SandboxContext } from '../context.js'
import type { RequestContext } from '../http/handler.js'

/**
 * Runs a capture, refund or cancel on the shop's own payment from the path (spec: Endpoints rule 1,
 * pspReference in the path). A repeated idempotency key gets the first answer instead; otherwise
 * `apply` checks and writes, and nothing after the signature check awaits, so it sees one state.
 */
async function modification(
  c: RequestContext,
  context: SandboxContext,
  apply: (row: PaymentRow, claim: IdempotencyClaim | undefined) => Response,
): Promise<Response> {
  const shop = await authenticate(c, context)
  // A delayed capture due by now has happened: the state judged below includes it.
  runDueCaptures(context)
  const row = findPayment(context, 'psp_reference', c.req.param('psp_reference')!)
  if (!row || row.shop_id !== shop.shop_id) throw notFound('payment')
  const claim = claimOf(c, shop, c.var.body.toString('utf8'))
  return replay(context, 'modifications', claim, 201) ?? apply(row, claim)
}

function amountOf(c: RequestContext, row: PaymentRow, schema: typeof CaptureRequestSchema = CaptureRequestSchema): number {
  const { amount } = validBody(c, schema, 'modification')
  if (amount.currency !== row.currency) throw new SandboxError('CURRENCY_MISMATCH', `amount.currency must be the payment's currency`)
  if (amount.value < 1) throw new SandboxError('AMOUNT_TOO_SMALL', 'amount.value must be at least 1')
  return amount.value
}

/** Records the modification with its answer and, with a claim, its idempotency key in the same INSERT. */
function recorded(
  context: SandboxContext,
  row: PaymentRow,
  kind: string,
  value: number | null,
  claim: IdempotencyClaim | undefined,
): Response {
  const reference = newPspReference()
  const answer = {
    pspReference: reference,
    paymentPspReference: row.psp_reference,
    status: 'received',
    ...(value === null ? {} : { amount: { currency: row.currency, value } }),
    metadata: JSON.parse(row.metadata) as unknown,
  }
  context.payments.insertModification(
    { psp_reference: reference, payment_psp_reference: row.psp_reference, kind, currency: value === null ? null : row.currency, value },
    {
      idempotency_key: claim?.scope ?? null,
      idempotency_fingerprint: claim?.fingerprint ?? null,
      idempotent_answer: claim ? JSON.stringify(answer) : null,
    },
    context.now().toISOString(),
  )
  return json(answer, 201)
}

const CAPTURABLE: readonly PaymentStatus[] = ['authorised', 'partially_captured']
const REFUNDABLE: readonly PaymentStatus[] = ['partially_captured', 'captured', 'partially_refunded']

/** Capture: at most what is authorised and not yet captured; partial captures add up. */
export async function capture(c: RequestContext, context: SandboxContext): Promise<Response> {
  return modification(c, context, (row, claim) => {
    if (!CAPTURABLE.includes(row.status))
      throw new SandboxError('CAPTURE_NOT_ALLOWED', `a payment in state ${row.status} cannot be captured`)
    const value = amountOf(c, row)
    if (row.captured + value > row.value)
      throw new SandboxError(
        'CAPTURE_EXCEEDS_AUTHORISED',
        `capture exceeds the authorised amount not yet captured (${row.value - row.captured})`,
      )
    const captured = row.captured + value
    return context.db.transaction(() => {
      const next = updatePayment(context, row, { captured, status: captured === row.value ? 'captured' : 'partially_captured' })
      return recorded(context, next, 'capture', value, claim)
    })()
  })
}

/** Refund: at most what is captured and not yet refunded. */
export async function refund(c: RequestContext, context: SandboxContext): Promise<Response> {
  return modification(c, context, (row, claim) => {
    if (!REFUNDABLE.includes(row.status))
      throw new SandboxError('REFUND_NOT_ALLOWED', `a payment in state ${row.status} has nothing captured to refund`)
    const value = amountOf(c, row, RefundRequestSchema)
    const lines = linesAfterRefund(context, row, validBody(c, RefundRequestSchema, 'modification'))
    if (row.refunded + value > row.captured)
      throw new SandboxError(
        'REFUND_EXCEEDS_CAPTURED',
        `refund exceeds the captured amount not yet refunded (${row.captured - row.refunded})`,
      )
    const refunded = row.refunded + value
    return context.db.transaction(() => {
      if (lines) context.orderTerms.setLines(row.psp_reference, lines)
      const next = updatePayment(context, row, {
        refunded,
        status: refunded === row.captured && row.captured === row.value ? 'refunded' : 'partially_refunded',
      })
      return recorded(context, next, 'refund', value, claim)
    })()
  })
}

/** Cancel (spec: Endpoints rule 5): only authorised and not yet captured. No body. */
export async function cancel(c: RequestContext, context: SandboxContext): Promise<Response> {
  return modification(c, context, (row, claim) => {
    if (c.var.body.length > 0) throw new SandboxError('INVALID_REQUEST', 'cancel takes no body')
    if (row.status !== 'authorised')
      throw new SandboxError(
        'CANCEL_NOT_ALLOWED',
        `only an authorised payment without captures can be cancelled; this one is ${row.status}`,
      )
    return context.db.transaction(() => {
      const next = updatePayment(context, row, { status: 'cancelled', result_code: 'Cancelled' })
      return recorded(context, next, 'cancel', null, claim)
    })()
  })
}

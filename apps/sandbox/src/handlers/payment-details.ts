import { ServicePaymentDetailsRequestSchema } from '@card-jwe/payment-validator'
import { authenticate } from '../authenticate.js'
import { afterAuthorised } from '../capture-timing.js'
import type { SandboxContext, ShopRow } from '../context.js'
import { SandboxError } from '../errors.js'
import { claimOf, keepAnswer, keptAnswer } from '../idempotency.js'
import type { RequestContext } from '../http/handler.js'
import { validBody } from '../http/parse-body.js'
import { fromBase64Json } from '../lib/base64-json.js'
import { challengeToken } from '../lib/threeds-tokens.js'
import { finalAnswerOf, findPayment, paymentAnswer, updatePayment, type PaymentRow } from '../payment-store.js'
import { payableStore } from './payments.js'
import { remember } from './saved-cards.js'

type Answer = Record<string, unknown>

/** Which payment a details request is about, from what the front end returned. */
function paymentForDetails(details: Record<string, string>, context: SandboxContext, shop: ShopRow): PaymentRow {
  const result = fromBase64Json(details.threeDSResult ?? details.redirectResult)
  const transactionId =
    typeof result?.threeDSServerTransID === 'string'
      ? result.threeDSServerTransID
      : typeof result?.transactionId === 'string'
        ? result.transactionId
        : undefined
  const row = transactionId ? findPayment(context, 'transaction_id', transactionId) : undefined
  if (!row || row.shop_id !== shop.shop_id)
    throw new SandboxError('DETAILS_UNKNOWN', 'details: threeDSResult or redirectResult does not belong to a payment of this shop')
  return row
}

/**
 * POST /shopplatform/processor/stores/{store_id}/payment-details. Its key is honoured as on every
 * POST: a repeat after a lost answer gets the first answer, the same key on other details 422.
 */
export async function paymentDetails(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  payableStore(context, shop, c.req.param('store_id')!)
  const body = validBody(c, ServicePaymentDetailsRequestSchema, 'payment details')
  const claim = claimOf(c, shop, body)
  const kept = keptAnswer(context, claim)
  if (kept) return kept
  const row = paymentForDetails(body.details, context, shop)
  // The step's move and its kept answer commit together: a crash keeps both or neither.
  return context.db.transaction(() => keepAnswer(context, claim, nextStep(context, row)))()
}

/** What the details move the payment to: the challenge after the fingerprint, or its final result. */
function nextStep(context: SandboxContext, row: PaymentRow): Answer {
  if (row.status === 'identify_shopper') {
    if (row.flow === 'challenge') {
      const next = updatePayment(context, row, { status: 'challenge_shopper', result_code: 'ChallengeShopper' })
      const action = {
        type: 'threeDS2',
        subtype: 'challenge',
        paymentMethodType: 'scheme',
        token: challengeToken(context.baseUrl, row.transaction_id!),
      }
      return paymentAnswer({ ...next, refusal_reason: null }, { action })
    }
    return finalAnswerOf(settle(context, row, true, '3D Not Authenticated'))
  }
  if (row.status === 'challenge_shopper') {
    // The ACS page recorded the shopper's answer; what the front end claims is not trusted.
    if (row.acs_result === null)
      throw new SandboxError('CHALLENGE_NOT_COMPLETED', 'details: the shopper has not answered the challenge yet')
    return finalAnswerOf(settle(context, row, row.acs_result === 'Y', '3D Not Authenticated'))
  }
  if (row.status === 'redirect_shopper') {
    if (row.acs_result === null)
      throw new SandboxError('REDIRECT_NOT_COMPLETED', 'details: the shopper has not returned from the redirect yet')
    if (row.acs_result === 'cancelled') {
      // The shopper cancelled at the bank: `Cancelled`, as the widely used checkout APIs answer.
      const next = updatePayment(context, row, { status: 'refused', result_code: 'Cancelled', refusal_reason: 'Cancelled by shopper' })
      remember(context, next)
      return finalAnswerOf(next)
    }
    // The buy-now-pay-later provider's own no: refused, as a bank's would be.
    if (row.acs_result === 'declined') return finalAnswerOf(settle(context, row, false, 'Declined by the provider'))
    return finalAnswerOf(settle(context, row, true, ''))
  }
  throw new SandboxError('PAYMENT_ALREADY_FINAL', 'details: this payment already has its final result')
}

/** The final result, in one transaction with what follows an authorisation (a stored card, the capture timing). */
function settle(context: SandboxContext, row: PaymentRow, authenticated: boolean, failure: string): PaymentRow {
  const refusal = authenticated ? row.refusal_reason : failure
  return context.db.transaction(() => {
    const next = updatePayment(
      context,
      row,
      refusal
        ? { status: 'refused', result_code: 'Refused', refusal_reason: refusal }
        : { status: 'authorised', result_code: 'Authorised' },
    )
    remember(context, next)
    afterAuthorised(context, next)
    return next
  })()
}

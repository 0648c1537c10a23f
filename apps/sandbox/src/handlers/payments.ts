import {
  ServicePaymentDetailsRequestSchema,
  ServicePaymentRequestSchema,
  STORE_PAYMENT_METHOD_TYPES,
  type ServicePaymentRequest,
} from '@card-jwe/payment-validator'
import { DecryptionError, type DecryptedCard } from '@card-jwe/testkit/decryptor'
import { TEST_CARDS } from '@card-jwe/testkit/test-cards'
import { numberVerdict, type NumberVerdict } from 'card-jwe'
import { authenticate } from '../authenticate.js'
import { SandboxError } from '../errors.js'
import { CARD_ERROR_CODES, isExpired, savedCardPayment, type CardFields, type CardOutcome } from './saved-cards.js'
import { claimOf, isUniqueViolation, replay } from '../idempotency.js'
import { afterAuthorised } from '../capture-timing.js'
import { checkMethodTerms, termsClaim, termsOf } from './order-terms.js'
import { enabledMethods, ONBOARDING_CLEAR, ownedStore, type OwnedStore } from '../merchant-store.js'
import { validBody } from '../http/parse-body.js'
import { json } from '../http/json.js'
import { fromBase64Json } from '../lib/base64-json.js'
import { newId, newPspReference, newTransactionId } from '../lib/ids.js'
import { challengeToken, fingerprintToken } from '../lib/threeds-tokens.js'
import { findPayment, insertPayment, paymentAnswer, updatePayment, type PaymentRow, type PaymentStatus } from '../payment-store.js'
import type { RequestContext } from '../http/handler.js'
import type { SandboxContext, ShopRow } from '../context.js'
import { describeEndpoint, ENDPOINTS } from '@card-jwe/service-client'

/** Redirect methods the sandbox offers (one is enough to exercise the flow). */
export const REDIRECT_METHODS = Object.freeze(['ideal', 'klarna'])

/** A store that may take payments: the shop's, onboarded (spec: "Onboarding"). */
function payableStore(context: SandboxContext, shop: ShopRow, storeId: string): OwnedStore {
  const store = ownedStore(context, shop, storeId)
  if (store.onboarding_status !== ONBOARDING_CLEAR) {
    throw new SandboxError(
      'STORE_NOT_ONBOARDED',
      `store: its contractor has not completed onboarding; see ${describeEndpoint(ENDPOINTS.onboardingStatus)}`,
    )
  }
  return store
}

/**
 * The amount the store can take (the spec leaves it open; ours, as processors do): its own currency
 * only, and 0 only as a card verification that stores the card (zero-value authorisation).
 */
function checkAmount(body: ServicePaymentRequest, store: OwnedStore): void {
  if (body.amount.currency !== store.currency) {
    throw new SandboxError('CURRENCY_NOT_SUPPORTED', `amount.currency: this store takes ${store.currency} only`)
  }
  const storesCard = body.paymentMethod.type === 'scheme' && body.storePaymentMethod === true && body.shopperReference !== undefined
  if (body.amount.value === 0 && !storesCard) {
    throw new SandboxError(
      'AMOUNT_ZERO_NOT_ALLOWED',
      'amount.value: 0 only verifies a card to store it (paymentMethod.type scheme, storePaymentMethod true, shopperReference)',
    )
  }
}

/** What the test platform does with a card: its catalogue entry, or the rules for other numbers. */
function cardOutcome(card: DecryptedCard, verdict: NumberVerdict, now: Date): CardOutcome {
  if (isExpired(card.expiryMonth, card.expiryYear, now)) return { flow: 'none', refusal: 'Expired Card' }
  const known = TEST_CARDS.find((c) => c.number === card.number)
  if (known) return { flow: known.threeDSecure, refusal: known.outcome === 'refused' ? (known.refusalReason ?? 'Refused') : null }
  return verdict.isValid ? { flow: 'none', refusal: null } : { flow: 'none', refusal: 'Invalid Card Number' }
}

function finalAnswerOf(row: PaymentRow): Record<string, unknown> {
  return paymentAnswer(row, row.status === 'refused' ? {} : { amount: { currency: row.currency, value: row.value } })
}

const finalAnswer = (row: PaymentRow): Response => json(finalAnswerOf(row))

/** Stores the card as the shopper's method when the payment asked for it and is authorised. */
function remember(context: SandboxContext, row: PaymentRow): void {
  if (!row.store_method || !row.shopper_reference || row.status !== 'authorised' || !row.card_expiry) return
  const [month, year] = row.card_expiry.split('/')
  context.payments.insertStoredMethod(
    {
      shop_id: row.shop_id,
      store_id: row.store_id,
      shopper_reference: row.shopper_reference,
      brand: row.card_brand!,
      last_four: row.card_last_four!,
      expiry_month: month!,
      expiry_year: year!,
    },
    newId('pm'),
    context.now().toISOString(),
  )
}

/** POST /shopplatform/processor/stores/{store_id}/payments */
export async function createPayment(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  const store = payableStore(context, shop, c.req.param('store_id')!)
  const body = validBody(c, ServicePaymentRequestSchema, 'payment request')
  checkAmount(body, store)
  checkMethodTerms(body)
  const method = body.paymentMethod as { type: string; jwe?: string; storedPaymentMethodId?: string }
  if ((STORE_PAYMENT_METHOD_TYPES as readonly string[]).includes(method.type) && !enabledMethods(store).includes(method.type)) {
    throw new SandboxError(
      'PAYMENT_METHOD_NOT_ENABLED',
      `paymentMethod.type: ${method.type} is turned off for this store (PUT .../payment-methods)`,
    )
  }
  // A retry names the same payment by path, amount, reference and metadata; the card blob may be new.
  const claim = claimOf(c, shop, [body.amount, body.reference ?? null, body.metadata ?? null, method.type, ...termsClaim(body)])
  const earlier = replay(context, 'payments', claim, 200)
  if (earlier) return earlier

  const base = {
    psp_reference: newPspReference(),
    shop_id: shop.shop_id,
    store_id: store.store_id,
    currency: body.amount.currency,
    value: body.amount.value,
    captured: 0,
    refunded: 0,
    reference: body.reference ?? null,
    metadata: JSON.stringify(body.metadata ?? {}),
    method_type: method.type,
    return_origin: new URL(body.returnUrl).origin,
    return_url: body.returnUrl,
    shopper_reference: body.shopperReference ?? null,
    store_method: body.storePaymentMethod ? 1 : 0,
    acs_result: null,
  }

  /**
   * Stores the payment with its answer (and the card, if it is to be remembered) in the next group
   * commit, and answers once that is on disk; a concurrent request under the same key gets the winner's answer.
   */
  const created = async (row: PaymentRow, answer: Record<string, unknown>): Promise<Response> => {
    try {
      await context.commit(() => {
        insertPayment(context, row, claim && { ...claim, answer })
        const terms = termsOf(row.psp_reference, body)
        if (terms) context.orderTerms.insert(terms)
        remember(context, row)
        afterAuthorised(context, row)
      })
    } catch (error) {
      if (claim && isUniqueViolation(error)) return replay(context, 'payments', claim, 200)!
      throw error
    }
    return json(answer)
  }

  if (REDIRECT_METHODS.includes(method.type)) {
    const row: PaymentRow = {
      ...base,
      status: 'redirect_shopper',
      result_code: 'RedirectShopper',
      card_brand: null,
      card_last_four: null,
      card_expiry: null,
      flow: 'redirect',
      transaction_id: newTransactionId(),
      refusal_reason: null,
    }
    const action = {
      type: 'redirect',
      paymentMethodType: method.type,
      method: 'GET',
      url: `${context.baseUrl}/redirect/${row.transaction_id}`,
    }
    return created(row, paymentAnswer(row, { action }))
  }
  const { cardFields, outcome } =
    method.type === 'scheme' && typeof method.storedPaymentMethodId === 'string'
      ? await savedCardPayment(context, shop, body)
      : await newCardPayment(context, method)

  if (outcome.flow === 'frictionless' || outcome.flow === 'challenge') {
    const row: PaymentRow = {
      ...base,
      ...cardFields,
      status: 'identify_shopper',
      result_code: 'IdentifyShopper',
      flow: outcome.flow,
      transaction_id: newTransactionId(),
      refusal_reason: outcome.refusal,
    }
    const action = {
      type: 'threeDS2',
      subtype: 'fingerprint',
      paymentMethodType: 'scheme',
      token: fingerprintToken(context.baseUrl, row.transaction_id!),
    }
    // The refusal of a 3-D Secure card is only told after authentication, as a real issuer would.
    return created(row, paymentAnswer({ ...row, refusal_reason: null }, { action }))
  }
  const status: PaymentStatus = outcome.refusal ? 'refused' : 'authorised'
  const row: PaymentRow = {
    ...base,
    ...cardFields,
    status,
    result_code: outcome.refusal ? 'Refused' : 'Authorised',
    flow: 'none',
    transaction_id: null,
    refusal_reason: outcome.refusal,
  }
  return created(row, finalAnswerOf(row))
}

/** A card of its own JWE: decrypted, and what the test platform does with it. */
async function newCardPayment(
  context: SandboxContext,
  method: { type: string; jwe?: string },
): Promise<{ cardFields: CardFields; outcome: CardOutcome }> {
  if (method.type !== 'scheme' || typeof method.jwe !== 'string') {
    throw new SandboxError(
      'UNSUPPORTED_PAYMENT_METHOD',
      'the sandbox takes cards as {type: "scheme", jwe} or {type: "scheme", storedPaymentMethodId, jwe?} ' +
        'and the redirect methods "ideal", "klarna"',
    )
  }
  let card: DecryptedCard
  try {
    card = (await context.decryptor.decrypt(method.jwe)).card
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error
    throw new SandboxError(CARD_ERROR_CODES[error.code], error.message)
  }
  const verdict = numberVerdict(card.number)
  const cardFields = {
    card_brand: verdict.brand?.type ?? 'unknown',
    card_last_four: card.number.slice(-4),
    card_expiry: `${card.expiryMonth}/${card.expiryYear}`,
  }
  return { cardFields, outcome: cardOutcome(card, verdict, context.now()) }
}

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

/** POST /shopplatform/processor/stores/{store_id}/payment-details */
export async function paymentDetails(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  payableStore(context, shop, c.req.param('store_id')!)
  const body = validBody(c, ServicePaymentDetailsRequestSchema, 'payment details')
  const row = paymentForDetails(body.details, context, shop)

  if (row.status === 'identify_shopper') {
    if (row.flow === 'challenge') {
      const next = updatePayment(context, row, { status: 'challenge_shopper', result_code: 'ChallengeShopper' })
      const action = {
        type: 'threeDS2',
        subtype: 'challenge',
        paymentMethodType: 'scheme',
        token: challengeToken(context.baseUrl, row.transaction_id!),
      }
      return json(paymentAnswer({ ...next, refusal_reason: null }, { action }))
    }
    return finalAnswer(settle(context, row, true, '3D Not Authenticated'))
  }
  if (row.status === 'challenge_shopper') {
    // The ACS page recorded the shopper's answer; what the front end claims is not trusted.
    if (row.acs_result === null)
      throw new SandboxError('CHALLENGE_NOT_COMPLETED', 'details: the shopper has not answered the challenge yet')
    return finalAnswer(settle(context, row, row.acs_result === 'Y', '3D Not Authenticated'))
  }
  if (row.status === 'redirect_shopper') {
    if (row.acs_result === null)
      throw new SandboxError('REDIRECT_NOT_COMPLETED', 'details: the shopper has not returned from the redirect yet')
    if (row.acs_result === 'cancelled') {
      // The shopper cancelled at the bank: `Cancelled`, as the widely used checkout APIs answer.
      const next = updatePayment(context, row, { status: 'refused', result_code: 'Cancelled', refusal_reason: 'Cancelled by shopper' })
      remember(context, next)
      return finalAnswer(next)
    }
    // The buy-now-pay-later provider's own no: refused, as a bank's would be.
    if (row.acs_result === 'declined') return finalAnswer(settle(context, row, false, 'Declined by the provider'))
    return finalAnswer(settle(context, row, true, ''))
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

import { ServicePaymentRequestSchema, STORE_PAYMENT_METHOD_TYPES, type ServicePaymentRequest } from '@card-jwe/payment-validator'
import { DecryptionError, type DecryptedCard } from '@card-jwe/testkit/decryptor'
import { TEST_CARDS } from '@card-jwe/testkit/test-cards'
import { numberVerdict, type NumberVerdict } from 'card-jwe'
import { authenticate } from '../authenticate.js'
import { SandboxError } from '../errors.js'
import { CARD_ERROR_CODES, isExpired, remember, savedCardPayment, type CardFields, type CardOutcome } from './saved-cards.js'
import { claimOf, type IdempotencyClaim, isUniqueViolation, refuseIfUsedElsewhere, replay } from '../idempotency.js'
import { afterAuthorised } from '../capture-timing.js'
import { checkMethodTerms, termsClaim, termsOf } from './order-terms.js'
import { enabledMethods, ONBOARDING_CLEAR, ownedStore, type OwnedStore } from '../merchant-store.js'
import { validBody } from '../http/parse-body.js'
import { json } from '../http/json.js'
import { newPspReference, newTransactionId } from '../lib/ids.js'
import { fingerprintToken } from '../lib/threeds-tokens.js'
import { finalAnswerOf, insertPayment, paymentAnswer, type PaymentRow, type PaymentStatus } from '../payment-store.js'
import type { RequestContext } from '../http/handler.js'
import type { SandboxContext, ShopRow } from '../context.js'
import { describeEndpoint, ENDPOINTS } from '@card-jwe/service-client'

/** Redirect methods the sandbox offers (one is enough to exercise the flow). */
export const REDIRECT_METHODS = Object.freeze(['ideal', 'klarna'])

/** A store that may take payments: the shop's, onboarded (spec: "Onboarding"). */
export function payableStore(context: SandboxContext, shop: ShopRow, storeId: string): OwnedStore {
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
  return context.keysInUse.run(claim, () => makePayment(context, { shop, store, body, method, claim }))
}

/** A new payment under `claim` (its key held meanwhile): stored with its answer, and answered. */
async function makePayment(
  context: SandboxContext,
  request: {
    readonly shop: ShopRow
    readonly store: OwnedStore
    readonly body: ServicePaymentRequest
    readonly method: { type: string; jwe?: string; storedPaymentMethodId?: string }
    readonly claim: IdempotencyClaim | undefined
  },
): Promise<Response> {
  const { shop, store, body, method, claim } = request
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
        // Another endpoint may have taken the key while the card was decrypted: then this write goes.
        if (claim) refuseIfUsedElsewhere(context, claim, 'payments')
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

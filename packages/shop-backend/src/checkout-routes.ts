import { completeBrowserInfo } from '@card-jwe/browser-info/server'
import {
  buildPaymentDetailsRequest,
  buildPaymentRequest,
  checkSubmission,
  DetailsSubmissionSchema,
  issuesOf,
  OrderIdSchema,
  type OrderRecord,
  PaymentSubmissionSchema,
  type PaymentRequest,
  type ShopPaymentConfig,
  ValidationError,
} from '@card-jwe/payment-validator'
import type { Context, Hono } from 'hono'
import { ShopBackendError } from './errors.js'
import { PaymentServiceError } from './payment-service.js'
import type { CheckoutConfig, CheckoutPaths, ShopBackendOptions } from './shop-backend-types.js'
import { json } from './http/answers.js'
import type { BackendEnv } from './http/backend-env.js'
import { jsonBody, readJsonBody } from './http/json-body.js'
import { onlyMethod } from './http/only-method.js'
import { mayOpenBankFrame, pageOriginCheck } from './http/page-origin-check.js'
import type { BackendContext } from './backend-context.js'
import { fingerprintOf } from './lib/fingerprint.js'
import { submitDetails } from './ledger/submit-details.js'
import { submitPayment } from './ledger/submit-payment.js'
import type { createOutbox, OutboxTicket } from './ledger/outbox.js'
import { requireOwnSavedCard, type SavedCardChoice, savedCardChoice } from './ledger/saved-card-check.js'
import { underAttempt } from './ledger/attempt-in-metadata.js'
import { canHaveSavedCards, savedCards } from './ledger/shopper-data.js'

/** Where the shopper returns after a redirect: the shop's `returnUrl`, else the shop's page with the order's id. */
export function returnUrlOf(deps: Pick<ShopBackendOptions, 'returnUrl'> & { readonly shopUrl: string }): (order: OrderRecord) => string {
  return deps.returnUrl ?? ((o) => `${deps.shopUrl}/?orderId=${encodeURIComponent(String(o.id))}`)
}

/** How the shop pays: where shoppers return, and its default of when money is taken. */
export function paymentConfigOf(
  deps: Pick<ShopBackendOptions, 'returnUrl' | 'captureDelayHours'> & { readonly shopUrl: string },
): ShopPaymentConfig {
  const returnUrl = returnUrlOf(deps)
  return deps.captureDelayHours === undefined ? { returnUrl } : { returnUrl, captureDelayHours: deps.captureDelayHours }
}

/**
 * The payment request, built before an attempt is stored: an order the method cannot be paid with
 * (klarna without lines that add up, an email or a billing country) is the shop's record falling
 * short, refused as ORDER_INCOMPLETE naming the fields, with nothing stored or sent.
 */
function orderPaymentRequest(build: () => PaymentRequest): PaymentRequest {
  try {
    return build()
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    const named = error.issues.map((i) => `${i.path} (${i.rule})`)
    throw new ShopBackendError('ORDER_INCOMPLETE', `the order cannot be paid this way: ${named.join(', ')}`, error.issues)
  }
}

/**
 * The context for one payments or details request: the changes it queues are its own, and the shop
 * hears them before the request answers (`ticket.deliver`, thrown or not); their "delivered" marks
 * commit later, off the answer's path.
 */
const forRequest = (context: BackendContext, ticket: OutboxTicket): BackendContext => ({ ...context, changeQueued: ticket.queued })

/** The checkout API the page calls, on `app` at `paths`: its config, payments, and payment details. */
export function addCheckoutRoutes(
  app: Hono<BackendEnv>,
  paths: CheckoutPaths,
  deps: Pick<ShopBackendOptions, 'returnUrl' | 'serviceOrigin' | 'paymentMethodsQuery' | 'captureDelayHours'> & {
    /** The certificate as the page is served it (checked at start); none: the checkout stays closed. */
    readonly certificatePem: string | undefined
    readonly context: BackendContext
    readonly outbox: ReturnType<typeof createOutbox>
    /** Without a trailing slash. */
    readonly shopUrl: string
    readonly maxBodyBytes: number
    readonly repeatWindowMs: number
  },
) {
  const { context } = deps
  const pageOriginMismatch = pageOriginCheck(context.log)
  // Made once: a payment reads them, it does not build them.
  const paymentConfig = paymentConfigOf(deps)
  const returnUrlFor = returnUrlOf(deps)
  async function orderOf(orderId: string | number): Promise<OrderRecord> {
    const order = await context.findOrder(String(orderId))
    if (!order) throw new ShopBackendError('ORDER_NOT_FOUND', 'orderId: no such order')
    return order
  }

  /** POST payments (spec: Front-end contract 3, 4, 7). */
  async function payments(c: Context<BackendEnv>): Promise<Response> {
    const request = c.req.raw
    const submitted = await readJsonBody(c, PaymentSubmissionSchema, deps.maxBodyBytes)
    const order = await orderOf(submitted.orderId)
    const checked = checkSubmission(submitted, order)
    // Field and rule only: the order's own values are not the page's business either.
    if (!checked.ok) {
      const named = checked.problems.map((p) => `${p.kind === 'mismatch' ? p.field : p.path} (${p.rule})`)
      throw new ShopBackendError(
        'ORDER_MISMATCH',
        `the submission does not match the order: ${named.join(', ')}`,
        checked.problems.map((p) => (p.kind === 'mismatch' ? { kind: p.kind, field: p.field, rule: p.rule } : p)),
      )
    }
    const submission = checked.submission
    // Before the saved-card read below: a card the page could not finish goes nowhere, not even there.
    const returnUrl = returnUrlFor(order)
    const mismatch = pageOriginMismatch(request.headers.get('origin'), returnUrl)
    if (mismatch && mayOpenBankFrame(submission.paymentMethod)) throw new ShopBackendError('PAGE_ORIGIN_MISMATCH', mismatch)
    // A saved card must be one of the order's shopper's, read now from the service: before anything is stored or sent.
    const savedCardId = (submission.paymentMethod as { readonly storedPaymentMethodId?: unknown }).storedPaymentMethodId
    if (savedCardId !== undefined) await requireOwnSavedCard(context, order, String(savedCardId))
    // iDEAL and other redirect methods send no browserInfo: nothing to complete then.
    const completed = submission.browserInfo
      ? completeBrowserInfo(submission.browserInfo, { headers: request.headers, ip: c.env.info.ip })
      : undefined
    const body = orderPaymentRequest(() =>
      buildPaymentRequest({
        order,
        submission,
        // The return URL made above: the shop's returnUrl function runs once a payment.
        config: { ...paymentConfig, returnUrl },
        ...(completed ? { browserInfo: completed.browserInfo } : {}),
        ...(completed?.shopperIP ? { shopperIP: completed.shopperIP } : {}),
      }),
    )
    const { service, storeId } = await context.connection()
    const fingerprint = fingerprintOf(submission.paymentMethod)
    const methodType = String(submission.paymentMethod.type)
    const ticket = deps.outbox.ticket()
    const result = await context
      .withLock(String(order.id), () =>
        submitPayment(
          forRequest(context, ticket),
          order,
          { methodType, fingerprint, repeatWindowMs: deps.repeatWindowMs, freshEachTry: 'jwe' in submission.paymentMethod },
          (attempt) => service.createPayment(storeId, underAttempt(body, attempt.number), { idempotencyKey: attempt.idempotencyKey }),
        ),
      )
      .finally(ticket.deliver)
    c.set('paymentAnswer', result)
    return json(200, result)
  }

  /** POST payment-details: after a redirect or a 3-D Secure step. */
  async function paymentDetails(c: Context<BackendEnv>): Promise<Response> {
    const submitted = await readJsonBody(c, DetailsSubmissionSchema, deps.maxBodyBytes)
    const order = await orderOf(submitted.orderId)
    const { service, storeId } = await context.connection()
    const fingerprint = fingerprintOf(submitted.details)
    const ticket = deps.outbox.ticket()
    const result = await context
      .withLock(String(order.id), () =>
        submitDetails(forRequest(context, ticket), order, fingerprint, (_attempt, idempotencyKey) =>
          service.paymentDetails(storeId, buildPaymentDetailsRequest(order, submitted), { idempotencyKey }),
        ),
      )
      .finally(ticket.deliver)
    c.set('paymentAnswer', result)
    return json(200, result)
  }

  /**
   * GET checkout config: the certificate, and whether and with which methods the page may sell. With
   * `?orderId=`, also the saved cards of that order's shopper (the shop's `shopperReference`, never the page's).
   */
  async function checkoutConfig(c: Context<BackendEnv>): Promise<Response> {
    const orderId = c.req.query('orderId')
    // The checkout's own rule, as the page's payment is judged by: findOrder never sees another.
    const parsed = orderId === undefined ? undefined : OrderIdSchema.safeParse(orderId)
    if (parsed?.success === false) {
      const rules = issuesOf(parsed.error).map((issue) => ({ path: 'orderId', rule: issue.rule }))
      throw new ShopBackendError('INVALID_INPUT', `orderId (${rules.map((r) => r.rule).join(', ')})`, rules)
    }
    const order = orderId === undefined ? undefined : await orderOf(orderId)
    let paymentMethods: string[] = []
    let savedCardsOffered: SavedCardChoice[] | undefined
    let serviceReachable = true
    // No certificate, no card the page can encrypt: closed, as before registration.
    let checkoutReady = deps.certificatePem !== undefined
    try {
      const { service, storeId } = await context.connection()
      const methods = await service.checkoutPaymentMethods(storeId, deps.paymentMethodsQuery ?? { country: 'NL' })
      paymentMethods = (methods.paymentMethods ?? []).map((m) => String(m.type))
      // The saved cards are extra: when they cannot be read, the page still offers a new card. A
      // reference they cannot be listed under (a line break) offers none, never a 500.
      const shopper = order?.shopperReference
      if (canHaveSavedCards(shopper) && paymentMethods.includes('scheme'))
        savedCardsOffered = await savedCards(context, shopper).then(
          (cards) => cards.map(savedCardChoice),
          (error: unknown) => {
            if (error instanceof ShopBackendError && (error.code === 'SERVICE_UNREACHABLE' || error.code === 'SERVICE_REFUSED'))
              return undefined
            throw error
          },
        )
    } catch (error) {
      if (error instanceof ShopBackendError && error.code === 'NOT_REGISTERED') checkoutReady = false
      else if (error instanceof PaymentServiceError) serviceReachable = false
      else throw error
    }
    const config: CheckoutConfig = {
      ...(deps.certificatePem !== undefined ? { certificatePem: deps.certificatePem } : {}),
      ...(deps.serviceOrigin ? { serviceOrigin: deps.serviceOrigin } : {}),
      checkoutReady,
      serviceReachable,
      paymentMethods,
      ...(savedCardsOffered ? { savedCards: savedCardsOffered } : {}),
    }
    return json(200, config)
  }

  const body = jsonBody(deps.maxBodyBytes)
  app.get(paths.config, checkoutConfig).all(paths.config, onlyMethod('GET'))
  app.post(paths.payments, body, payments).all(paths.payments, onlyMethod('POST'))
  app.post(paths.paymentDetails, body, paymentDetails).all(paths.paymentDetails, onlyMethod('POST'))
}

import { completeBrowserInfo } from '@card-jwe/browser-info/server'
import {
  buildPaymentDetailsRequest,
  buildPaymentRequest,
  checkSubmission,
  DetailsSubmissionSchema,
  type OrderRecord,
  parseJsonBody,
  PaymentSubmissionSchema,
} from '@card-jwe/payment-validator'
import { ShopBackendError } from './errors.js'
import { PaymentServiceError } from './payment-service.js'
import type { RequestInfo, ShopBackendOptions } from './shop-backend-types.js'
import type { BackendContext } from './lib/context.js'
import { fingerprintOf } from './lib/fingerprint.js'
import { json, readBody, requireJson } from './lib/http.js'
import { submitDetails } from './ledger/submit-details.js'
import { submitPayment } from './ledger/submit-payment.js'
import type { createOutbox, OutboxTicket } from './ledger/outbox.js'

/**
 * The context for one payments or details request: the changes it queues are its own, and the shop
 * hears them before the request answers (`ticket.deliver`, thrown or not); their "delivered" marks
 * commit later, off the answer's path.
 */
const forRequest = (context: BackendContext, ticket: OutboxTicket): BackendContext => ({ ...context, changeQueued: ticket.queued })

/** The checkout API the page calls: its config, payments, and payment details. */
export function createCheckoutRoutes(
  deps: Pick<ShopBackendOptions, 'returnUrl' | 'certificatePem' | 'serviceOrigin' | 'paymentMethodsQuery'> & {
    readonly context: BackendContext
    readonly outbox: ReturnType<typeof createOutbox>
    /** Without a trailing slash. */
    readonly shopUrl: string
    readonly maxBodyBytes: number
    readonly repeatWindowMs: number
  },
) {
  const { context } = deps
  async function orderOf(orderId: string | number): Promise<OrderRecord> {
    const order = await context.findOrder(String(orderId))
    if (!order) throw new ShopBackendError(404, 'ORDER_NOT_FOUND', 'orderId: no such order')
    return order
  }

  /** POST payments (spec: Front-end contract 3, 4, 7). */
  async function payments(request: Request, info: RequestInfo): Promise<Response> {
    requireJson(request)
    const parsed = parseJsonBody(await readBody(request, deps.maxBodyBytes), PaymentSubmissionSchema, { maxBytes: deps.maxBodyBytes })
    if (!parsed.ok) throw new ShopBackendError(400, 'INVALID_BODY', parsed.error.message, parsed.error.issues)
    const order = await orderOf(parsed.value.orderId)
    const checked = checkSubmission(parsed.value, order)
    // Field and rule only: the order's own values are not the page's business either.
    if (!checked.ok) {
      const named = checked.problems.map((p) => `${p.kind === 'mismatch' ? p.field : p.path} (${p.rule})`)
      throw new ShopBackendError(
        422,
        'ORDER_MISMATCH',
        `the submission does not match the order: ${named.join(', ')}`,
        checked.problems.map((p) => (p.kind === 'mismatch' ? { kind: p.kind, field: p.field, rule: p.rule } : p)),
      )
    }
    const { service, storeId } = await context.connection()
    const submission = checked.submission
    const fingerprint = fingerprintOf(submission.paymentMethod)
    const methodType = String(submission.paymentMethod.type)
    const ticket = deps.outbox.ticket()
    const result = await context
      .withLock(String(order.id), () =>
        submitPayment(forRequest(context, ticket), order, { methodType, fingerprint, repeatWindowMs: deps.repeatWindowMs }, (attempt) => {
          // iDEAL and other redirect methods send no browserInfo: nothing to complete then.
          const completed = submission.browserInfo
            ? completeBrowserInfo(submission.browserInfo, { headers: request.headers, ip: info.ip })
            : undefined
          const body = buildPaymentRequest({
            order,
            submission,
            config: { returnUrl: deps.returnUrl ?? ((o) => `${deps.shopUrl}/?orderId=${encodeURIComponent(String(o.id))}`) },
            ...(completed ? { browserInfo: completed.browserInfo } : {}),
            ...(completed?.shopperIP ? { shopperIP: completed.shopperIP } : {}),
          })
          return service.createPayment(storeId, body, { idempotencyKey: attempt.idempotencyKey })
        }),
      )
      .finally(ticket.deliver)
    return json(200, result)
  }

  /** POST payment-details: after a redirect or a 3-D Secure step. */
  async function paymentDetails(request: Request): Promise<Response> {
    requireJson(request)
    const parsed = parseJsonBody(await readBody(request, deps.maxBodyBytes), DetailsSubmissionSchema, { maxBytes: deps.maxBodyBytes })
    if (!parsed.ok) throw new ShopBackendError(400, 'INVALID_BODY', parsed.error.message, parsed.error.issues)
    const order = await orderOf(parsed.value.orderId)
    const { service, storeId } = await context.connection()
    const fingerprint = fingerprintOf(parsed.value.details)
    const ticket = deps.outbox.ticket()
    const result = await context
      .withLock(String(order.id), () =>
        submitDetails(forRequest(context, ticket), order, fingerprint, (_attempt, idempotencyKey) =>
          service.paymentDetails(storeId, buildPaymentDetailsRequest(order, parsed.value), { idempotencyKey }),
        ),
      )
      .finally(ticket.deliver)
    return json(200, result)
  }

  /** GET checkout config: the certificate, and whether and with which methods the page may sell. */
  async function checkoutConfig(): Promise<Response> {
    let paymentMethods: string[] = []
    let serviceReachable = true
    let checkoutReady = true
    try {
      const { service, storeId } = await context.connection()
      const methods = await service.checkoutPaymentMethods(storeId, deps.paymentMethodsQuery ?? { country: 'NL' })
      paymentMethods = (methods.paymentMethods ?? []).map((m) => String(m.type))
    } catch (error) {
      if (error instanceof ShopBackendError && error.code === 'NOT_REGISTERED') checkoutReady = false
      else if (error instanceof PaymentServiceError) serviceReachable = false
      else throw error
    }
    return json(200, {
      ...(deps.certificatePem ? { certificatePem: deps.certificatePem } : {}),
      ...(deps.serviceOrigin ? { serviceOrigin: deps.serviceOrigin } : {}),
      checkoutReady,
      serviceReachable,
      paymentMethods,
    })
  }

  return { payments, paymentDetails, checkoutConfig }
}

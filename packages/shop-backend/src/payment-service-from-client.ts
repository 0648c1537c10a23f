import {
  createServiceClient,
  type ServiceClient,
  type ServiceClientOptions,
  ServiceError,
  ServiceUnreachableError,
} from '@card-jwe/service-client'
import { MAX_CALL_DEADLINE_MS } from './ledger/details-claim.js'
import {
  PaymentServiceError,
  type MerchantService,
  type PaymentService,
  type RegisterShop,
  type ServiceCredentials,
} from './payment-service.js'

/**
 * Statuses that leave the outcome open: overloaded, a gateway without an answer, the service's own
 * crash; and a 2xx whose body could not be read (`INVALID_RESPONSE`): the service took the request.
 */
const isOpenStatus = (status: number) => status === 429 || status >= 500 || (status >= 200 && status < 300)

/**
 * What a refusal's message says: `code` (the status or code only: on a payment's path the service's
 * words could echo what the shopper typed), `words` (the set-up's: the merchant's own input), or
 * `both` (registration's: the code, then the words, which name the shop's own endpoint).
 */
type Said = 'code' | 'words' | 'both'

/** Maps service-client's errors onto the port's two kinds; anything else (a TypeError: our bug) stays as it is. */
function classify(error: unknown, said: Said = 'code'): never {
  // `instanceof` holds across two installed copies of the client (its errors carry a Symbol.for brand).
  if (error instanceof ServiceUnreachableError)
    throw new PaymentServiceError('unknown', error.code, 'the payment service gave no answer', undefined, { cause: error })
  if (error instanceof ServiceError) {
    const { status, code: errorCode, message } = error
    const messageOf = (alone: string) => (said === 'code' ? alone : said === 'words' ? message : `${alone}: ${message}`)
    // After a try that got no answer, a refusal (a gateway's 404, a signature refused) does not say
    // the first try did nothing: the outcome stays open, and the key is kept for the next try.
    if (isOpenStatus(status) || error.unanswered)
      throw new PaymentServiceError('unknown', errorCode, messageOf(`the payment service answered ${status} (${errorCode})`), status, {
        cause: error,
      })
    throw new PaymentServiceError('refused', errorCode, messageOf(`the payment service refused (${errorCode})`), status, {
      cause: error,
    })
  }
  throw error
}

/**
 * The payment methods are read for every checkout page load (`GET /api/config`): with the service
 * down, the page learns it within this, not after a payment call's 15 s, and can say so before Pay.
 */
export const CHECKOUT_CONFIG_DEADLINE_MS = 3_000

/** A TypeError for a call deadline another instance's claim could outlive (details-claim.ts). */
function checkCallDeadline(deadlineMs: number | undefined): void {
  if (typeof deadlineMs === 'number' && deadlineMs > MAX_CALL_DEADLINE_MS)
    throw new TypeError(
      `deadlineMs: at most ${MAX_CALL_DEADLINE_MS} ms, so a call ends long before another instance may take its order's step as abandoned`,
    )
}

/**
 * Adapts a signed `ServiceClient` to the back end's {@link PaymentService} port. A client whose
 * `deadlineMs` is over 30 s is a TypeError, as in {@link connectServiceClient}.
 */
export function paymentServiceFromClient(client: ServiceClient): PaymentService {
  // A client that does not say its deadline (another copy, an older release) could have any.
  if (typeof client.deadlineMs !== 'number' || !Number.isFinite(client.deadlineMs))
    throw new TypeError(
      'client.deadlineMs: a number; the client must say its deadline (a client of this release of @card-jwe/service-client)',
    )
  checkCallDeadline(client.deadlineMs)
  return {
    createPayment: (storeId, body, call) => client.createPayment(storeId, body, { idempotencyKey: call.idempotencyKey }).catch(classify),
    paymentDetails: (storeId, body, call) => client.paymentDetails(storeId, body, { idempotencyKey: call.idempotencyKey }).catch(classify),
    capture: (psp, amount, call) => client.capture(psp, amount, { idempotencyKey: call.idempotencyKey }).catch(classify),
    refund: (psp, amount, call) =>
      client
        .refund(psp, amount, {
          idempotencyKey: call.idempotencyKey,
          ...(call.lineItems === undefined ? {} : { lineItems: call.lineItems }),
        })
        .catch(classify),
    cancel: (psp, call) => client.cancel(psp, { idempotencyKey: call.idempotencyKey }).catch(classify),
    updatedPayments: (query) =>
      client.updatedPayments({ after: query.after, ...(query.limit ? { limit: query.limit } : {}) }).catch(classify),
    checkoutPaymentMethods: (storeId, query) =>
      client.checkoutPaymentMethods(storeId, query, { deadlineMs: CHECKOUT_CONFIG_DEADLINE_MS }).catch(classify),
    unsubscribe: (storeId, body, call) => client.unsubscribe(storeId, body, { idempotencyKey: call.idempotencyKey }).catch(classify),
    subjectErasure: (psp, call) => client.subjectErasure(psp, { idempotencyKey: call.idempotencyKey }).catch(classify),
  }
}

const classifySetup = (error: unknown): never => classify(error, 'words')

/** Adapts a signed `ServiceClient` to the set-up port, {@link MerchantService}. */
export function merchantServiceFromClient(client: ServiceClient): MerchantService {
  return {
    sendVerificationEmail: (email) => client.sendVerificationEmail(email).catch(classifySetup),
    connectBackofficeUser: (body, call) =>
      client.connectBackofficeUser(body, call && { idempotencyKey: call.idempotencyKey }).catch(classifySetup),
    listContractors: () => client.listContractors().catch(classifySetup),
    connectContractor: (contractorId) => client.connectContractor(contractorId).catch(classifySetup),
    listStores: () => client.listStores().catch(classifySetup),
    createStore: (body, call) => client.createStore(body, call && { idempotencyKey: call.idempotencyKey }).catch(classifySetup),
    createOnboardingLink: () => client.createOnboardingLink().catch(classifySetup),
    onboardingStatus: () => client.onboardingStatus().catch(classifySetup),
    countries: () => client.countries().catch(classifySetup),
    industryCodes: () => client.industryCodes().catch(classifySetup),
    setStorePaymentMethods: (storeId, body) => client.setStorePaymentMethods(storeId, body).catch(classifySetup),
  }
}

/**
 * The back end's `service` and `registerShop` options from service-client's options (base URL,
 * deadlines, fetch): one client signs as the shop once its credentials are known. A `deadlineMs`
 * over 30 s is a TypeError: another instance takes a step's claim as abandoned after 60 s.
 */
export function connectServiceClient(options: Omit<ServiceClientOptions, 'credentials'> = {}): {
  /** Both ports: the payment calls and the merchant set-up's. */
  readonly service: (credentials: ServiceCredentials) => PaymentService & MerchantService
  /** The unsigned registration call. */
  readonly registerShop: RegisterShop
} {
  checkCallDeadline(options.deadlineMs)
  return {
    service: (credentials) => {
      const client = createServiceClient({ ...options, credentials })
      return { ...paymentServiceFromClient(client), ...merchantServiceFromClient(client) }
    },
    registerShop: async (shop, call) => {
      // A refusal names the shop's own endpoint or pair, never a shopper's data: the service's words are kept.
      const result = await createServiceClient(options)
        .register(shop, call)
        .catch((error: unknown) => classify(error, 'both'))
      return { shopId: result.shopId, storeId: result.storeId }
    },
  }
}

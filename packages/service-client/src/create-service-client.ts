import {
  ContractorSchema,
  OnboardingLinkSchema,
  OnboardingStatusSchema,
  PaymentMethodsResponseSchema,
  PaymentResponseSchema,
  type Amount,
  type Contractor,
  type CreateStoreRequest,
  type OnboardingStatus,
  type PaymentDetailsRequest,
  type PaymentMethodsResponse,
  type BackofficeUserRequest,
  type UpdateStoreRequest,
  type PaymentRequest,
  type PaymentResponse,
  type ServicePaymentDetailsRequest,
  type ServicePaymentRequest,
  type StorePaymentMethodsRequest,
} from '@card-jwe/payment-validator'
import { ServiceError } from './errors.js'
import {
  BackofficeUserResultSchema,
  ClientKeySchema,
  ContractorConnectionSchema,
  CountryListSchema,
  EmailVerificationResultSchema,
  ErasureResultSchema,
  IndustryCodeListSchema,
  StoreListSchema,
  StorePaymentMethodsResultSchema,
  StoreSchema,
  ModificationResultSchema,
  RegistrationResultSchema,
  UnsubscribeResultSchema,
  UpdatedPaymentsPageSchema,
  type BackofficeUserResult,
  type ContractorConnection,
  type CountryList,
  type EmailVerificationResult,
  type ErasureResult,
  type IndustryCodeList,
  type ModificationResult,
  type StorePaymentMethodsResult,
  type UnsubscribeResult,
  type Store,
  type RegistrationResult,
  type UpdatedPaymentsPage,
} from './responses.js'
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN } from './idempotency.js'
import { signRequest } from './signing.js'
import { z } from 'zod'

/** Where the client talks by default: the local sandbox (`pnpm sandbox`). */
export const SANDBOX_BASE_URL = 'http://127.0.0.1:8790'
/** Registration path and body are ours (the spec does not show them); see docs/decisions.md. */
export const REGISTRATION_PATH = '/shopplatform/processor/shop-registrations'
/** How long one call may take before the client gives up. */
export const DEFAULT_TIMEOUT_MS = 30_000
/**
 * Waits before each retry of a call that carries an idempotency key, when the service could not be
 * reached or answered 502/503/504. Calls without a key are never retried: a second try could pay twice.
 */
export const DEFAULT_RETRY_DELAYS_MS = Object.freeze([250, 1000, 2500])

const P = '/shopplatform/processor'

/** Who signs: the shop's id and the secret the service pushed to it. */
export interface ServiceCredentials {
  /** From registration (`RegistrationResult.shopId`). */
  readonly shopId: string
  /** Pushed by the service to the shop's batch-settings endpoint at registration. */
  readonly serviceSecret: string
}

/** Options of {@link createServiceClient}. */
export interface ServiceClientOptions {
  /** The sandbox by default; the service's `{base_url_dev}` or `{base_url}` otherwise. */
  readonly baseUrl?: string
  /** Needed for every call but registration. */
  readonly credentials?: ServiceCredentials
  /** Per attempt; default {@link DEFAULT_TIMEOUT_MS}. */
  readonly timeoutMs?: number
  /** Clock for the signature's timestamp; defaults to the real time. */
  readonly now?: () => Date
  /** Waits before retries of calls with an idempotency key; default {@link DEFAULT_RETRY_DELAYS_MS}. */
  readonly retryDelaysMs?: readonly number[]
}

/** The body of {@link ServiceClient.register}. */
export interface ShopRegistration {
  /** The shop's base URL: the service calls its settings endpoints there. */
  readonly shopUrl: string
  /** The key the service presents to the shop's settings endpoints. */
  readonly key: string
  /** The secret that goes with `key`. */
  readonly secret: string
  /** An onboarded store at once (the sandbox offers it), instead of the merchant set-up. */
  readonly readyMadeStore?: boolean
}

/** The answer to registration with `readyMadeStore: true`. */
export interface ReadyMadeStoreRegistration extends RegistrationResult {
  /** The ready-made store, onboarded: pay with it at once. */
  readonly storeId: string
}

/** The answer of {@link ServiceClient.createOnboardingLink}. */
export interface OnboardingLink {
  /** Send the merchant there; the hosted pages come back to the shop's onboarding-return URL. */
  readonly uri: string
}

/** The query of {@link ServiceClient.updatedPayments}. */
export interface UpdatedPaymentsQuery {
  /** The cursor of the last page read; absent for the start of the feed. */
  readonly after?: number
  /** Payments per page. */
  readonly limit?: number
}

/** The query of {@link ServiceClient.checkoutPaymentMethods}. */
export interface CheckoutPaymentMethodsQuery {
  /** The shopper's country, ISO 3166-1 alpha-2. */
  readonly country?: string
  /** The payment's currency, ISO 4217. */
  readonly currency?: string
  /** The shopper's reference, to list their stored cards. */
  readonly shopper?: string
}

/** The body of {@link ServiceClient.unsubscribe}. */
export interface UnsubscribeRequest {
  /** The shopper the card was stored for. */
  readonly shopperReference: string
  /** The stored card, from the payment methods' `storedPaymentMethods`. */
  readonly storedPaymentMethodId: string
}

/** For calls that create a payment or move money: the same key on a retry gets the first answer. */
export interface IdempotentCall {
  /** 8-64 of [A-Za-z0-9_-]; derive it from the order and attempt, so a retry sends the same one. */
  readonly idempotencyKey?: string
}

type Schema<T> = z.ZodType<T>

/** Every endpoint of the service, typed; see {@link createServiceClient}. */
export interface ServiceClient {
  /** The base URL the client calls, without a trailing slash. */
  readonly baseUrl: string
  /** The same client, signing as this shop. */
  withCredentials(credentials: ServiceCredentials): ServiceClient
  /**
   * Unsigned: the service then calls the shop's settings endpoints with key and secret. With
   * `readyMadeStore: true` the answer carries the ready-made store's id (checked, so typed as present).
   */
  register(shop: ShopRegistration & { readonly readyMadeStore: true }): Promise<ReadyMadeStoreRegistration>
  /** Unsigned: the service then calls the shop's settings endpoints with key and secret. */
  register(shop: ShopRegistration): Promise<RegistrationResult>
  /** Merchant set-up, in the spec's order ("Endpoints" rules 3 and 4). */
  sendVerificationEmail(email: string): Promise<EmailVerificationResult>
  /** Connects the merchant's back-office user with the emailed code. */
  connectBackofficeUser(body: BackofficeUserRequest): Promise<BackofficeUserResult>
  /** The contractors (legal entities) the back-office user may act for. */
  listContractors(): Promise<Contractor[]>
  /** Makes a contractor current for the following calls. */
  connectContractor(contractorId: string): Promise<ContractorConnection>
  /** The industry codes a store may have. */
  industryCodes(): Promise<IndustryCodeList>
  /** The countries a store may be in. */
  countries(): Promise<CountryList>
  /** The stores of whichever contractor is current: connect the one you mean first (rule 3). */
  listStores(): Promise<Store[]>
  /** Creates a store for the current contractor (with the contractor itself, when new). */
  createStore(body: CreateStoreRequest): Promise<Store>
  /** Changes a store's label, phone, address or statement. */
  updateStore(storeId: string, body: UpdateStoreRequest): Promise<Store>
  /** What the service still needs before the current contractor may take payments. */
  onboardingStatus(): Promise<OnboardingStatus>
  /** A link to the processor's hosted onboarding pages, for the merchant to finish verification. */
  createOnboardingLink(): Promise<OnboardingLink>
  /** Turns a store's payment methods on or off. */
  setStorePaymentMethods(storeId: string, body: StorePaymentMethodsRequest): Promise<StorePaymentMethodsResult>
  /** Takes what the service takes: a body built by `buildPaymentRequest`, or a Drop-in's `state.data` plus the shop's fields. */
  createPayment(storeId: string, request: PaymentRequest | ServicePaymentRequest, options?: IdempotentCall): Promise<PaymentResponse>
  /** Sends what the page returned from a 3-D Secure step or redirect (`details`), for the final result. */
  paymentDetails(storeId: string, request: PaymentDetailsRequest | ServicePaymentDetailsRequest): Promise<PaymentResponse>
  /** Captures all or part of an authorised payment. */
  capture(pspReference: string, amount: Amount, options?: IdempotentCall): Promise<ModificationResult>
  /** Refunds all or part of a captured payment. */
  refund(pspReference: string, amount: Amount, options?: IdempotentCall): Promise<ModificationResult>
  /** Cancels an authorised payment that is not captured. */
  cancel(pspReference: string, options?: IdempotentCall): Promise<ModificationResult>
  /** The payments changed after a cursor: poll it to learn outcomes (the spec has no webhooks). */
  updatedPayments(query?: UpdatedPaymentsQuery): Promise<UpdatedPaymentsPage>
  /** The payment methods a store offers a shopper, for the checkout page. */
  checkoutPaymentMethods(storeId: string, query?: CheckoutPaymentMethodsQuery): Promise<PaymentMethodsResponse>
  /** The store's client key, for a page that uses the processor's components. */
  clientKey(storeId: string): Promise<string>
  /** The client key of the service's own web component. */
  webComponentClientKey(): Promise<string>
  /** Removes a shopper's stored card. */
  unsubscribe(storeId: string, body: UnsubscribeRequest): Promise<UnsubscribeResult>
  /** Asks the service to erase the shopper data of one payment. */
  subjectErasure(pspReference: string): Promise<ErasureResult>
}

const segment = (value: string) => {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw new TypeError('path parameter: expected 1-64 of [A-Za-z0-9_-]')
  return value
}

function query(values: { readonly [key: string]: string | number | undefined }): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(values)) if (value !== undefined) params.set(key, String(value))
  const text = params.toString()
  return text ? `?${text}` : ''
}

/**
 * A typed client for every service endpoint: signs each request (docs/service-signing.md),
 * validates each response with the schemas, and throws ServiceError with the service's status,
 * code and message.
 */
export function createServiceClient(options: ServiceClientOptions = {}): ServiceClient {
  const baseUrl = (options.baseUrl ?? SANDBOX_BASE_URL).replace(/\/+$/, '')
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS

  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS

  /** One attempt; each is signed afresh (new timestamp and nonce), with the same body and key. */
  async function attempt(method: string, pathWithQuery: string, text: string | undefined, signed: boolean, idempotencyKey: string | undefined): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (text !== undefined) headers['content-type'] = 'application/json'
    if (idempotencyKey !== undefined) headers[IDEMPOTENCY_KEY_HEADER] = idempotencyKey
    if (signed) Object.assign(headers, await signRequest(options.credentials!, { method, pathWithQuery, body: text ?? '' }, options.now?.()))
    return fetch(baseUrl + pathWithQuery, { method, headers, ...(text === undefined ? {} : { body: text }), signal: AbortSignal.timeout(timeoutMs) })
  }

  async function call<T>(method: string, pathWithQuery: string, schema: Schema<T>, body?: unknown, signed = true, idempotencyKey?: string): Promise<T> {
    if (signed && !options.credentials) throw new TypeError('this call is signed: create the client with credentials (shopId, serviceSecret)')
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) throw new TypeError('idempotencyKey: 8 to 64 characters of [A-Za-z0-9_-]')
    const text = body === undefined ? undefined : JSON.stringify(body)
    let response: Response | undefined
    for (let tries = 0; ; tries++) {
      const retryable = idempotencyKey !== undefined && tries < retryDelays.length
      try {
        response = await attempt(method, pathWithQuery, text, signed, idempotencyKey)
        if (!retryable || ![502, 503, 504].includes(response.status)) break
      } catch (error) {
        if (!retryable) throw error
      }
      await new Promise((resolve) => setTimeout(resolve, retryDelays[tries]))
    }
    const payload: unknown = await response.json().catch(() => undefined)
    if (!response.ok) {
      const envelope = payload as Partial<{ status: number; errorCode: string; message: string; errorType: string }> | undefined
      throw new ServiceError({
        status: response.status,
        errorCode: typeof envelope?.errorCode === 'string' ? envelope.errorCode : 'HTTP_ERROR',
        message: typeof envelope?.message === 'string' ? envelope.message : `HTTP ${response.status}`,
        errorType: typeof envelope?.errorType === 'string' ? envelope.errorType : 'unknown',
      })
    }
    const parsed = schema.safeParse(payload)
    if (!parsed.success) throw new ServiceError({ status: response.status, errorCode: 'INVALID_RESPONSE', message: `${method} ${pathWithQuery.split('?')[0]}: response does not match its schema`, errorType: 'client' })
    return parsed.data
  }

  return {
    baseUrl,
    withCredentials: (credentials) => createServiceClient({ ...options, credentials }),
    register: (async (shop: { readyMadeStore?: boolean }) => {
      const result = await call('POST', REGISTRATION_PATH, RegistrationResultSchema, shop, false)
      if (shop.readyMadeStore === true && result.storeId === undefined) throw new ServiceError({ status: 201, errorCode: 'INVALID_RESPONSE', message: 'registration: a ready-made store was asked for and no storeId came back', errorType: 'client' })
      return result
    }) as ServiceClient['register'],
    sendVerificationEmail: (email) => call('POST', '/email-verification-messages', EmailVerificationResultSchema, { email }),
    connectBackofficeUser: (body) => call('PUT', `${P}/backoffice-user`, BackofficeUserResultSchema, body),
    listContractors: () => call('GET', `${P}/backoffice-user-contractors`, z.array(ContractorSchema)),
    connectContractor: (contractorId) => call('PUT', `${P}/contractor`, ContractorConnectionSchema, { contractorId }),
    industryCodes: () => call('GET', `${P}/industry-codes`, IndustryCodeListSchema),
    countries: () => call('GET', `${P}/countries`, CountryListSchema),
    listStores: () => call('GET', `${P}/stores`, StoreListSchema),
    createStore: (body) => call('POST', `${P}/stores`, StoreSchema, body),
    updateStore: (storeId, body) => call('PATCH', `${P}/stores/${segment(storeId)}`, StoreSchema, body),
    onboardingStatus: () => call('GET', `${P}/onboarding-status`, OnboardingStatusSchema),
    createOnboardingLink: async () => ({ uri: (await call('POST', `${P}/onboarding-links`, OnboardingLinkSchema, {})).uri }),
    setStorePaymentMethods: (storeId, body) => call('PUT', `${P}/stores/${segment(storeId)}/payment-methods`, StorePaymentMethodsResultSchema, body),
    createPayment: (storeId, request, o = {}) => call('POST', `${P}/stores/${segment(storeId)}/payments`, PaymentResponseSchema, request, true, o.idempotencyKey),
    paymentDetails: (storeId, request) => call('POST', `${P}/stores/${segment(storeId)}/payment-details`, PaymentResponseSchema, request),
    capture: (psp, amount, o = {}) => call('POST', `${P}/payments/${segment(psp)}/captures`, ModificationResultSchema, { amount }, true, o.idempotencyKey),
    refund: (psp, amount, o = {}) => call('POST', `${P}/payments/${segment(psp)}/refunds`, ModificationResultSchema, { amount }, true, o.idempotencyKey),
    cancel: (psp, o = {}) => call('POST', `${P}/payments/${segment(psp)}/cancels`, ModificationResultSchema, undefined, true, o.idempotencyKey),
    updatedPayments: (q = {}) => call('GET', `${P}/updated-payments${query({ after: q.after, limit: q.limit })}`, UpdatedPaymentsPageSchema),
    checkoutPaymentMethods: (storeId, q = {}) => call('GET', `${P}/stores/${segment(storeId)}/checkout-payment-methods${query({ ...q })}`, PaymentMethodsResponseSchema),
    clientKey: async (storeId) => (await call('GET', `${P}/stores/${segment(storeId)}/client-key`, ClientKeySchema)).clientKey,
    webComponentClientKey: async () => (await call('GET', `${P}/web-component-client-key`, ClientKeySchema)).clientKey,
    unsubscribe: (storeId, body) => call('POST', `${P}/stores/${segment(storeId)}/unsubscribe-requests`, UnsubscribeResultSchema, body),
    subjectErasure: (psp) => call('POST', `${P}/payments/${segment(psp)}/subject-erasure-requests`, ErasureResultSchema),
  }
}

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
  type CountryList,
  type IndustryCodeList,
  type ModificationResult,
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

export interface ServiceCredentials {
  readonly shopId: string
  /** Pushed by the service to the shop's batch-settings endpoint at registration. */
  readonly serviceSecret: string
}

export interface ServiceClientOptions {
  /** The sandbox by default; the service's `{base_url_dev}` or `{base_url}` otherwise. */
  readonly baseUrl?: string
  readonly credentials?: ServiceCredentials
  readonly timeoutMs?: number
  readonly now?: () => Date
  readonly retryDelaysMs?: readonly number[]
}

/** For calls that create a payment or move money: the same key on a retry gets the first answer. */
export interface IdempotentCall {
  readonly idempotencyKey?: string
}

type Schema<T> = z.ZodType<T>

export interface ServiceClient {
  readonly baseUrl: string
  /** The same client, signing as this shop. */
  withCredentials(credentials: ServiceCredentials): ServiceClient
  /**
   * Unsigned: the service then calls the shop's settings endpoints with key and secret. With
   * `readyMadeStore: true` the answer carries the ready-made store's id (checked, so typed as present).
   */
  register(shop: { shopUrl: string; key: string; secret: string; readyMadeStore: true }): Promise<RegistrationResult & { storeId: string }>
  /** Unsigned: the service then calls the shop's settings endpoints with key and secret. */
  register(shop: { shopUrl: string; key: string; secret: string; readyMadeStore?: boolean }): Promise<RegistrationResult>
  /** Merchant set-up, in the spec's order ("Endpoints" rules 3 and 4). */
  sendVerificationEmail(email: string): Promise<z.infer<typeof EmailVerificationResultSchema>>
  connectBackofficeUser(body: { email: string; code: string }): Promise<z.infer<typeof BackofficeUserResultSchema>>
  listContractors(): Promise<Contractor[]>
  connectContractor(contractorId: string): Promise<z.infer<typeof ContractorConnectionSchema>>
  industryCodes(): Promise<IndustryCodeList>
  countries(): Promise<CountryList>
  /** The stores of whichever contractor is current: connect the one you mean first (rule 3). */
  listStores(): Promise<Store[]>
  createStore(body: CreateStoreRequest): Promise<Store>
  updateStore(storeId: string, body: { label?: string; phone?: string; address?: CreateStoreRequest['store']['address']; shopperStatement?: string }): Promise<Store>
  onboardingStatus(): Promise<OnboardingStatus>
  createOnboardingLink(): Promise<{ uri: string }>
  setStorePaymentMethods(storeId: string, body: StorePaymentMethodsRequest): Promise<z.infer<typeof StorePaymentMethodsResultSchema>>
  /** Takes what the service takes: a body built by `buildPaymentRequest`, or a Drop-in's `state.data` plus the shop's fields. */
  createPayment(storeId: string, request: PaymentRequest | ServicePaymentRequest, options?: IdempotentCall): Promise<PaymentResponse>
  paymentDetails(storeId: string, request: PaymentDetailsRequest | ServicePaymentDetailsRequest): Promise<PaymentResponse>
  capture(pspReference: string, amount: Amount, options?: IdempotentCall): Promise<ModificationResult>
  refund(pspReference: string, amount: Amount, options?: IdempotentCall): Promise<ModificationResult>
  cancel(pspReference: string, options?: IdempotentCall): Promise<ModificationResult>
  updatedPayments(query?: { after?: number; limit?: number }): Promise<UpdatedPaymentsPage>
  checkoutPaymentMethods(storeId: string, query?: { country?: string; currency?: string; shopper?: string }): Promise<z.infer<typeof PaymentMethodsResponseSchema>>
  clientKey(storeId: string): Promise<string>
  webComponentClientKey(): Promise<string>
  unsubscribe(storeId: string, body: { shopperReference: string; storedPaymentMethodId: string }): Promise<z.infer<typeof UnsubscribeResultSchema>>
  subjectErasure(pspReference: string): Promise<z.infer<typeof ErasureResultSchema>>
}

const segment = (value: string) => {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw new TypeError('path parameter: expected 1-64 of [A-Za-z0-9_-]')
  return value
}

function query(values: Record<string, string | number | undefined>): string {
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
    checkoutPaymentMethods: (storeId, q = {}) => call('GET', `${P}/stores/${segment(storeId)}/checkout-payment-methods${query(q)}`, PaymentMethodsResponseSchema),
    clientKey: async (storeId) => (await call('GET', `${P}/stores/${segment(storeId)}/client-key`, ClientKeySchema)).clientKey,
    webComponentClientKey: async () => (await call('GET', `${P}/web-component-client-key`, ClientKeySchema)).clientKey,
    unsubscribe: (storeId, body) => call('POST', `${P}/stores/${segment(storeId)}/unsubscribe-requests`, UnsubscribeResultSchema, body),
    subjectErasure: (psp) => call('POST', `${P}/payments/${segment(psp)}/subject-erasure-requests`, ErasureResultSchema),
  }
}

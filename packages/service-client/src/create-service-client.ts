import type {
  Amount,
  BackofficeUserRequest,
  Contractor,
  CreateStoreRequest,
  OnboardingStatus,
  PaymentDetailsRequest,
  PaymentMethodsResponse,
  PaymentRequest,
  PaymentResponse,
  ServicePaymentDetailsRequest,
  ServicePaymentRequest,
  StoredPaymentMethod,
  StorePaymentMethodsRequest,
  UpdateStoreRequest,
} from '@card-jwe/payment-validator'
import { StoredPaymentMethodSchema } from '@card-jwe/payment-validator'
import type { z } from 'zod'
import { defaultFetch } from '#default-fetch'
import type { FetchLike } from './fetch-like.js'
import { describeEndpoint, ENDPOINTS, type ServiceEndpoint } from './endpoints.js'
import { ServiceError, ServiceUnreachableError, type CallRecord } from './errors.js'
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN } from './idempotency.js'
import type { Backoff } from './lib/backoff.js'
import { send, type SendPolicy } from './lib/send.js'
import { callTelemetry, type CallOutcome, type TelemetryOptions } from './lib/call-telemetry.js'
import type {
  BackofficeUserResult,
  ContractorConnection,
  CountryList,
  EmailVerificationResult,
  ErasureResult,
  IndustryCodeList,
  ModificationResult,
  RegistrationResult,
  Store,
  StorePaymentMethodsResult,
  UnsubscribeResult,
  UpdatedPaymentsPage,
} from './responses.js'
import { signRequest } from './signing.js'

/** The local sandbox's port unless told otherwise (`pnpm sandbox`, the demo's embedded sandbox). */
export const SANDBOX_DEFAULT_PORT = 8790
/** Where the client talks by default: the local sandbox (`pnpm sandbox`). */
export const SANDBOX_BASE_URL = `http://127.0.0.1:${SANDBOX_DEFAULT_PORT}`
/** Registration's path: ours, since the spec does not show it (unsigned, `{shopUrl, key, secret, readyMadeStore?}`). */
export const REGISTRATION_PATH = ENDPOINTS.register.path
/**
 * How long one call may take in all, retries and waits included: about what a shopper waiting on
 * "Pay" bears before the shop should say something.
 */
export const DEFAULT_DEADLINE_MS = 15_000
/** How long one attempt may take, to the answer's last byte; three fit in the default deadline. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 5_000
/**
 * Registration's time unless the client's options set one: the service calls the shop's two
 * settings endpoints before it answers, 10 s each at most (decisions.md), so 5 s would give up on
 * registrations that are still running.
 */
export const REGISTRATION_TIMEOUT_MS = 25_000
/** Waits between attempts: 0.5 s doubling to 5 s, each 50-100 % of that (jitter). */
export const DEFAULT_BACKOFF: Backoff = Object.freeze({ initialMs: 500, maxMs: 5_000 })

/** Who signs: the shop's id and the secret the service pushed to it. */
export interface ServiceCredentials {
  /** From registration (`RegistrationResult.shopId`). */
  readonly shopId: string
  /** Pushed by the service to the shop's batch-settings endpoint at registration. */
  readonly serviceSecret: string
}

/** How long a call may take; per client in {@link ServiceClientOptions}, per call in {@link CallOptions}. */
export interface CallTimes {
  /** The whole call, every retry and wait included; default {@link DEFAULT_DEADLINE_MS}. */
  readonly deadlineMs?: number
  /** One attempt, to the answer's last byte (never past the deadline); default {@link DEFAULT_ATTEMPT_TIMEOUT_MS}. */
  readonly attemptTimeoutMs?: number
}

/** Options of {@link createServiceClient}. */
export interface ServiceClientOptions extends CallTimes, TelemetryOptions {
  /** The sandbox by default; the service's `{base_url_dev}` or `{base_url}` otherwise. */
  readonly baseUrl?: string
  /** Needed for every call but registration. */
  readonly credentials?: ServiceCredentials
  /** Clock for the signature's timestamp; defaults to the real time. */
  readonly now?: () => Date
  /** Waits between attempts; default {@link DEFAULT_BACKOFF}. */
  readonly backoff?: Backoff
  /** 0 to 1, for the jitter of the waits; default `Math.random`. `() => 1` makes every wait its full length. */
  readonly random?: () => number
  /** How the client waits between attempts; default a timer. The deadline counts each wait as asked, however short this makes it. */
  readonly sleep?: (ms: number) => Promise<void>
  /**
   * How requests go out. Default: on Node, node:http with kept-alive connections (a quarter of the
   * CPU of Node's fetch per call); elsewhere `globalThis.fetch`. Pass `fetch` itself, or a wrapped
   * one for logging, a proxy or tests: anything with fetch's shape for what the client uses ({@link FetchLike}).
   */
  readonly fetch?: FetchLike
}

/** Per-call options of a call that reads. */
export type CallOptions = CallTimes

/** Per-call options of a call that writes: all but the GETs. */
export interface IdempotentCall extends CallTimes {
  /**
   * 8-64 of [A-Za-z0-9_-], sent as `Idempotency-Key` on every attempt of the call. Without one the
   * client generates one per call, which covers its own retries only: derive the key from the order
   * and attempt, and store it before the call, so a second call for the same thing sends it again.
   */
  readonly idempotencyKey?: string
}

/** A refund's call: its key, and where the payment sent `lineItems`, the lines it gives back. */
export interface RefundCall extends IdempotentCall {
  /**
   * The lines refunded, each by the `id` the payment sent it under, with how many: their
   * `quantity * amountIncludingTax` must add up to the refund's amount. Part of the body, so a retry
   * under the same key must name the same lines.
   */
  readonly lineItems?: readonly RefundLine[]
}

/** One line a refund gives back. */
export interface RefundLine {
  /** The line's `id` in the payment request. */
  readonly id: string
  /** How many of it. */
  readonly quantity: number
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

/**
 * Every endpoint of the service, typed; see {@link createServiceClient}. Each call rejects with
 * `ServiceError` (the service's refusal, or an answer that breaks its schema), `ServiceUnreachableError`
 * (no answer within the deadline) or, before anything is sent, `TypeError` (a wrong argument).
 */
export interface ServiceClient {
  /** The base URL the client calls, without a trailing slash. */
  readonly baseUrl: string
  /** The same client, signing as this shop. */
  withCredentials(credentials: ServiceCredentials): ServiceClient
  /**
   * Unsigned, one attempt: the service then calls the shop's settings endpoints with key and secret.
   * With `readyMadeStore: true` the answer carries the ready-made store's id (checked, so typed as present).
   */
  register(shop: ShopRegistration & { readonly readyMadeStore: true }, options?: IdempotentCall): Promise<ReadyMadeStoreRegistration>
  /**
   * Unsigned, one attempt (25 s unless the options set a time): the service then calls the shop's
   * settings endpoints with key and secret. Store the `idempotencyKey` before the call and send it
   * again after an unknown outcome: the service answers a repeat with the first registration.
   */
  register(shop: ShopRegistration, options?: IdempotentCall): Promise<RegistrationResult>
  /** Merchant set-up, in the spec's order ("Endpoints" rules 3 and 4). */
  sendVerificationEmail(email: string, options?: IdempotentCall): Promise<EmailVerificationResult>
  /** Connects the merchant's back-office user with the emailed code. */
  connectBackofficeUser(body: BackofficeUserRequest, options?: IdempotentCall): Promise<BackofficeUserResult>
  /** The contractors (legal entities) the back-office user may act for. */
  listContractors(options?: CallOptions): Promise<Contractor[]>
  /** Makes a contractor current for the following calls. */
  connectContractor(contractorId: string, options?: IdempotentCall): Promise<ContractorConnection>
  /** The industry codes a store may have. */
  industryCodes(options?: CallOptions): Promise<IndustryCodeList>
  /** The countries a store may be in. */
  countries(options?: CallOptions): Promise<CountryList>
  /** The stores of whichever contractor is current: connect the one you mean first (rule 3). */
  listStores(options?: CallOptions): Promise<Store[]>
  /** Creates a store for the current contractor (with the contractor itself, when new). */
  createStore(body: CreateStoreRequest, options?: IdempotentCall): Promise<Store>
  /** Changes a store's label, phone, address or statement. */
  updateStore(storeId: string, body: UpdateStoreRequest, options?: IdempotentCall): Promise<Store>
  /** What the service still needs before the current contractor may take payments. */
  onboardingStatus(options?: CallOptions): Promise<OnboardingStatus>
  /** A link to the processor's hosted onboarding pages, for the merchant to finish verification. */
  createOnboardingLink(options?: IdempotentCall): Promise<OnboardingLink>
  /** Turns a store's payment methods on or off. */
  setStorePaymentMethods(storeId: string, body: StorePaymentMethodsRequest, options?: IdempotentCall): Promise<StorePaymentMethodsResult>
  /**
   * Takes what the service takes: a body built by `buildPaymentRequest`, or a Drop-in's `state.data`
   * plus the shop's fields. Pass an `idempotencyKey` derived from the order and attempt.
   */
  createPayment(storeId: string, request: PaymentRequest | ServicePaymentRequest, options?: IdempotentCall): Promise<PaymentResponse>
  /** Sends what the page returned from a 3-D Secure step or redirect (`details`), for the final result. */
  paymentDetails(
    storeId: string,
    request: PaymentDetailsRequest | ServicePaymentDetailsRequest,
    options?: IdempotentCall,
  ): Promise<PaymentResponse>
  /** Captures all or part of an authorised payment. */
  capture(pspReference: string, amount: Amount, options?: IdempotentCall): Promise<ModificationResult>
  /** Refunds all or part of a captured payment; by line with `options.lineItems` where the payment sent lines. */
  refund(pspReference: string, amount: Amount, options?: RefundCall): Promise<ModificationResult>
  /** Cancels an authorised payment that is not captured. */
  cancel(pspReference: string, options?: IdempotentCall): Promise<ModificationResult>
  /** The payments changed after a cursor: poll it to learn outcomes (the spec has no webhooks). */
  updatedPayments(query?: UpdatedPaymentsQuery, options?: CallOptions): Promise<UpdatedPaymentsPage>
  /** The payment methods a store offers a shopper, for the checkout page. */
  checkoutPaymentMethods(storeId: string, query?: CheckoutPaymentMethodsQuery, options?: CallOptions): Promise<PaymentMethodsResponse>
  /**
   * A shopper's saved cards (`storedPaymentMethods` of checkout-payment-methods with `shopper`), each
   * with only `id`, `brand`, `lastFour`, `expiryMonth`, `expiryYear` and `holderName` when given.
   */
  savedCards(storeId: string, shopperReference: string, options?: CallOptions): Promise<readonly StoredPaymentMethod[]>
  /** The store's client key, for a page that uses the processor's components. */
  clientKey(storeId: string, options?: CallOptions): Promise<string>
  /** The client key of the service's own web component. */
  webComponentClientKey(options?: CallOptions): Promise<string>
  /** Removes a shopper's stored card. */
  unsubscribe(storeId: string, body: UnsubscribeRequest, options?: IdempotentCall): Promise<UnsubscribeResult>
  /** Asks the service to erase the shopper data of one payment. */
  subjectErasure(pspReference: string, options?: IdempotentCall): Promise<ErasureResult>
}

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

/** A path id, checked: it goes into the path as is. */
function id(field: 'storeId' | 'pspReference', value: unknown): string {
  if (typeof value !== 'string' || !ID_PATTERN.test(value)) throw new TypeError(`${field}: 1 to 64 characters of [A-Za-z0-9_-]`)
  return value
}

function query(values: { readonly [key: string]: string | number | undefined }): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(values)) if (value !== undefined) params.set(key, String(value))
  const text = params.toString()
  return text ? `?${text}` : ''
}

function positive(field: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new TypeError(`${field}: a positive number of milliseconds`)
  return value
}

function checkCredentials(credentials: ServiceCredentials | undefined): void {
  if (credentials === undefined) return
  // Sent as a header: control characters would make fetch fail in a way that looks like a network error.
  if (typeof credentials.shopId !== 'string' || !/^[\x21-\x7e]{1,128}$/.test(credentials.shopId))
    throw new TypeError('credentials.shopId: 1 to 128 visible ASCII characters')
  if (typeof credentials.serviceSecret !== 'string' || credentials.serviceSecret.length === 0)
    throw new TypeError('credentials.serviceSecret: a non-empty string')
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function envelopeOf(text: string): Partial<Record<'errorCode' | 'message' | 'errorType', unknown>> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * A typed client for every service endpoint. Signs each attempt with `service_secret` (HMAC-SHA256
 * over a timestamp, a nonce, the method, the path with query and the body's hash, in the `x-signature`
 * headers), sends every call but a GET with an `Idempotency-Key`, retries within one deadline, and
 * validates each answer with its schema.
 */
export function createServiceClient(options: ServiceClientOptions = {}): ServiceClient {
  const baseUrl = (options.baseUrl ?? SANDBOX_BASE_URL).replace(/\/+$/, '')
  let protocol = ''
  try {
    protocol = new URL(baseUrl).protocol
  } catch {}
  if (protocol !== 'http:' && protocol !== 'https:') throw new TypeError('baseUrl: an absolute http or https URL')
  checkCredentials(options.credentials)
  const deadlineMs = positive('deadlineMs', options.deadlineMs, DEFAULT_DEADLINE_MS)
  const attemptTimeoutMs = positive('attemptTimeoutMs', options.attemptTimeoutMs, DEFAULT_ATTEMPT_TIMEOUT_MS)
  const backoff: Backoff = {
    initialMs: positive('backoff.initialMs', options.backoff?.initialMs, DEFAULT_BACKOFF.initialMs),
    maxMs: positive('backoff.maxMs', options.backoff?.maxMs, DEFAULT_BACKOFF.maxMs),
  }
  const fetchFn = options.fetch ?? defaultFetch()
  if (typeof fetchFn !== 'function') throw new TypeError('fetch: a function (globalThis.fetch is missing here)')
  const transport: FetchLike = fetchFn
  const startCall = callTelemetry(options, baseUrl)

  async function call<T>(
    endpoint: ServiceEndpoint<z.ZodType<T>>,
    ids: Readonly<Record<string, string>>,
    body: unknown,
    callOptions: IdempotentCall = {},
    search = '',
  ): Promise<T> {
    // Every check before the first byte is sent: a wrong argument is a TypeError, never a retry.
    const credentials = options.credentials
    if (endpoint.signed && !credentials)
      throw new TypeError('credentials: this call is signed; create the client with credentials (shopId, serviceSecret)')
    const given = callOptions.idempotencyKey
    if (given !== undefined && (typeof given !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(given)))
      throw new TypeError('idempotencyKey: 8 to 64 characters of [A-Za-z0-9_-]')
    if (given !== undefined && !endpoint.idempotencyKey) throw new TypeError(`idempotencyKey: ${endpoint.method} calls carry none`)
    const idempotencyKey = endpoint.idempotencyKey ? (given ?? globalThis.crypto.randomUUID()) : undefined
    const policy: SendPolicy = {
      deadlineMs: positive('deadlineMs', callOptions.deadlineMs, deadlineMs),
      attemptTimeoutMs: positive('attemptTimeoutMs', callOptions.attemptTimeoutMs, attemptTimeoutMs),
      retried: endpoint.retried,
      backoff,
      random: options.random ?? Math.random,
      sleep: options.sleep ?? defaultSleep,
      fetch: transport,
    }
    const pathWithQuery = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name]!) + search
    const text = body === undefined ? undefined : JSON.stringify(body)
    const method = endpoint.method
    const headers = async () => {
      const h: Record<string, string> = { accept: 'application/json' }
      if (text !== undefined) h['content-type'] = 'application/json'
      if (idempotencyKey !== undefined) h[IDEMPOTENCY_KEY_HEADER] = idempotencyKey
      // Each attempt signed afresh: a new timestamp and nonce, the same body and key.
      if (endpoint.signed) Object.assign(h, await signRequest(credentials!, { method, pathWithQuery, body: text ?? '' }, options.now?.()))
      return h
    }

    const endCall = startCall(endpoint)
    const { outcome, attempts } = await send({ method, url: baseUrl + pathWithQuery, headers, body: text }, policy)
    const record: CallRecord = { attempts, idempotencyKey }
    const name = describeEndpoint(endpoint)
    const ended = (result: CallOutcome) => endCall(result, attempts)
    if (outcome.kind === 'no-answer') {
      const code = outcome.timedOut ? 'SERVICE_TIMEOUT' : 'SERVICE_UNREACHABLE'
      ended({ kind: 'unreachable', errorCode: code })
      throw new ServiceUnreachableError(code, name, record, { cause: outcome.cause })
    }
    if (outcome.status < 200 || outcome.status > 299) {
      const envelope = envelopeOf(outcome.text)
      const errorCode = typeof envelope?.errorCode === 'string' ? envelope.errorCode : 'HTTP_ERROR'
      ended({ kind: 'refused', status: outcome.status, errorCode })
      throw new ServiceError(
        {
          status: outcome.status,
          errorCode,
          message: typeof envelope?.message === 'string' ? envelope.message : `${name}: HTTP ${outcome.status}`,
          errorType: typeof envelope?.errorType === 'string' ? envelope.errorType : 'unknown',
        },
        record,
      )
    }
    const invalid = (rule: string) => {
      ended({ kind: 'invalid', status: outcome.status, errorCode: 'INVALID_RESPONSE' })
      return new ServiceError(
        { status: outcome.status, errorCode: 'INVALID_RESPONSE', message: `${name}: the answer ${rule}`, errorType: 'client' },
        record,
      )
    }
    let payload: unknown
    try {
      payload = JSON.parse(outcome.text)
    } catch {
      throw invalid('is not JSON')
    }
    const parsed = endpoint.answer.safeParse(payload)
    if (!parsed.success) throw invalid('does not match its schema')
    const resultCode = (parsed.data as { resultCode?: unknown } | null)?.resultCode
    ended({ kind: 'ok', status: outcome.status, resultCode: typeof resultCode === 'string' ? resultCode : undefined })
    return parsed.data
  }

  const E = ENDPOINTS
  return {
    baseUrl,
    withCredentials: (credentials) => createServiceClient({ ...options, credentials }),
    register: (async (shop: ShopRegistration, o?: IdempotentCall) => {
      const times = {
        attemptTimeoutMs: options.attemptTimeoutMs ?? REGISTRATION_TIMEOUT_MS,
        deadlineMs: options.deadlineMs ?? REGISTRATION_TIMEOUT_MS,
      }
      const result = await call(E.register, {}, shop, { ...times, ...o })
      if (shop.readyMadeStore === true && result.storeId === undefined) {
        throw new ServiceError({
          status: 201,
          errorCode: 'INVALID_RESPONSE',
          message: 'registration: a ready-made store was asked for and no storeId came back',
          errorType: 'client',
        })
      }
      return result
    }) as ServiceClient['register'],
    sendVerificationEmail: (email, o) => call(E.sendVerificationEmail, {}, { email }, o),
    connectBackofficeUser: (body, o) => call(E.connectBackofficeUser, {}, body, o),
    listContractors: (o) => call(E.listContractors, {}, undefined, o),
    connectContractor: (contractorId, o) => call(E.connectContractor, {}, { contractorId }, o),
    industryCodes: (o) => call(E.industryCodes, {}, undefined, o),
    countries: (o) => call(E.countries, {}, undefined, o),
    listStores: (o) => call(E.listStores, {}, undefined, o),
    createStore: (body, o) => call(E.createStore, {}, body, o),
    updateStore: async (storeId, body, o) => call(E.updateStore, { store_id: id('storeId', storeId) }, body, o),
    onboardingStatus: (o) => call(E.onboardingStatus, {}, undefined, o),
    createOnboardingLink: async (o) => ({ uri: (await call(E.createOnboardingLink, {}, {}, o)).uri }),
    setStorePaymentMethods: async (storeId, body, o) => call(E.setStorePaymentMethods, { store_id: id('storeId', storeId) }, body, o),
    createPayment: async (storeId, request, o) => call(E.createPayment, { store_id: id('storeId', storeId) }, request, o),
    paymentDetails: async (storeId, request, o) => call(E.paymentDetails, { store_id: id('storeId', storeId) }, request, o),
    capture: async (psp, amount, o) => call(E.capture, { psp_reference: id('pspReference', psp) }, { amount }, o),
    refund: async (psp, amount, o) => {
      const body =
        o?.lineItems === undefined ? { amount } : { amount, lineItems: o.lineItems.map((l) => ({ id: l.id, quantity: l.quantity })) }
      return call(E.refund, { psp_reference: id('pspReference', psp) }, body, o)
    },
    cancel: async (psp, o) => call(E.cancel, { psp_reference: id('pspReference', psp) }, undefined, o),
    updatedPayments: (q = {}, o) => call(E.updatedPayments, {}, undefined, o, query({ after: q.after, limit: q.limit })),
    checkoutPaymentMethods: async (storeId, q = {}, o) =>
      call(E.checkoutPaymentMethods, { store_id: id('storeId', storeId) }, undefined, o, query({ ...q })),
    savedCards: async (storeId, shopperReference, o) => {
      if (typeof shopperReference !== 'string' || !/^.{3,256}$/.test(shopperReference)) {
        throw new TypeError('shopperReference: 3-256 characters')
      }
      const answer = await call(
        E.checkoutPaymentMethods,
        { store_id: id('storeId', storeId) },
        undefined,
        o,
        query({ shopper: shopperReference }),
      )
      return (answer.storedPaymentMethods ?? []).map((card) => StoredPaymentMethodSchema.parse(card))
    },
    clientKey: async (storeId, o) => (await call(E.clientKey, { store_id: id('storeId', storeId) }, undefined, o)).clientKey,
    webComponentClientKey: async (o) => (await call(E.webComponentClientKey, {}, undefined, o)).clientKey,
    unsubscribe: async (storeId, body, o) => call(E.unsubscribe, { store_id: id('storeId', storeId) }, body, o),
    subjectErasure: async (psp, o) => call(E.subjectErasure, { psp_reference: id('pspReference', psp) }, undefined, o),
  }
}

import { StoredPaymentMethodSchema } from '@card-jwe/payment-validator'
import type { z } from 'zod'
import { defaultFetch } from '#default-fetch'
import type { FetchLike } from './fetch-like.js'
import { describeEndpoint, ENDPOINTS, type ServiceEndpoint } from './endpoints.js'
import { ServiceError, ServiceUnreachableError, type CallRecord } from './errors.js'
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN } from './idempotency.js'
import { readFeedPage } from './responses.js'
import type { Backoff } from './lib/backoff.js'
import { send, type SendPolicy } from './lib/send.js'
import { callTelemetry, type CallOutcome } from './lib/call-telemetry.js'
import { amountOf, checkCredentials, defaultSleep, envelopeOf, id, positive, query } from './lib/call-arguments.js'
import { serviceErrorCode, serviceErrorType, serviceMessage } from './lib/service-error-text.js'
import { signRequest } from './signing.js'
import {
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  DEFAULT_BACKOFF,
  DEFAULT_DEADLINE_MS,
  REGISTRATION_TIMEOUT_MS,
  SANDBOX_BASE_URL,
} from './client-defaults.js'
import type { IdempotentCall, ServiceClient, ServiceClientOptions, ShopRegistration } from './service-client-types.js'

/**
 * A typed client for every service endpoint. Signs each attempt with `service_secret` (HMAC-SHA256
 * over a timestamp, a nonce, the method, the path with query and the body's hash, in the `x-signature`
 * headers), sends every call but a GET with an `Idempotency-Key`, retries within one deadline, and
 * validates each answer with its schema.
 */
export function createServiceClient(options: ServiceClientOptions = {}): ServiceClient {
  const baseUrl = (options.baseUrl ?? SANDBOX_BASE_URL).replace(/\/+$/, '')
  let base: URL | undefined
  try {
    base = new URL(baseUrl)
  } catch {}
  if (base?.protocol !== 'http:' && base?.protocol !== 'https:') throw new TypeError('baseUrl: an absolute http or https URL')
  // A path is kept (a gateway's prefix) and signed; a query, fragment or user would break every path after it.
  if (/[?#]/.test(baseUrl) || base.username || base.password)
    throw new TypeError('baseUrl: an origin and at most a path, without query, fragment or user')
  const basePath = base.pathname.replace(/\/+$/, '')
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
      if (endpoint.signed) {
        // Signed as the request line carries it: the base URL's path first.
        const signedPath = basePath + pathWithQuery
        Object.assign(h, await signRequest(credentials!, { method, pathWithQuery: signedPath, body: text ?? '' }, options.now?.()))
      }
      return h
    }

    const endCall = startCall(endpoint)
    const { outcome, attempts, unanswered } = await send({ method, url: baseUrl + pathWithQuery, headers, body: text }, policy)
    const record: CallRecord = { attempts, idempotencyKey, unanswered }
    const name = describeEndpoint(endpoint)
    const ended = (result: CallOutcome) => endCall(result, attempts)
    if (outcome.kind === 'no-answer') {
      const code = outcome.timedOut ? 'SERVICE_TIMEOUT' : 'SERVICE_UNREACHABLE'
      ended({ kind: 'unreachable', errorCode: code })
      throw new ServiceUnreachableError(code, name, record, { cause: outcome.cause })
    }
    if (outcome.status < 200 || outcome.status > 299) {
      const envelope = envelopeOf(outcome.text)
      const errorCode = serviceErrorCode(envelope?.errorCode) ?? 'HTTP_ERROR'
      ended({ kind: 'refused', status: outcome.status, errorCode })
      throw new ServiceError(
        {
          status: outcome.status,
          errorCode,
          message: typeof envelope?.message === 'string' ? serviceMessage(envelope.message) : `${name}: HTTP ${outcome.status}`,
          errorType: serviceErrorType(envelope?.errorType) ?? 'unknown',
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
    deadlineMs,
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
    capture: async (psp, amount, o) => call(E.capture, { psp_reference: id('pspReference', psp) }, { amount: amountOf(amount) }, o),
    refund: async (psp, amount, o) => {
      const lineItems = o?.lineItems?.map((l) => ({ id: l.id, quantity: l.quantity }))
      const body = { amount: amountOf(amount), ...(lineItems === undefined ? {} : { lineItems }) }
      return call(E.refund, { psp_reference: id('pspReference', psp) }, body, o)
    },
    cancel: async (psp, o) => call(E.cancel, { psp_reference: id('pspReference', psp) }, undefined, o),
    updatedPayments: async (q = {}, o) =>
      readFeedPage(await call(E.updatedPayments, {}, undefined, o, query({ after: q.after, limit: q.limit }))),
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
      // Only what reads as a card: another stored method (a mandate) or one odd card must not cost the shopper the others.
      return (answer.storedPaymentMethods ?? []).flatMap((card) => {
        const read = StoredPaymentMethodSchema.safeParse(card)
        return read.success ? [read.data] : []
      })
    },
    clientKey: async (storeId, o) => (await call(E.clientKey, { store_id: id('storeId', storeId) }, undefined, o)).clientKey,
    webComponentClientKey: async (o) => (await call(E.webComponentClientKey, {}, undefined, o)).clientKey,
    unsubscribe: async (storeId, body, o) => call(E.unsubscribe, { store_id: id('storeId', storeId) }, body, o),
    subjectErasure: async (psp, o) => call(E.subjectErasure, { psp_reference: id('pspReference', psp) }, undefined, o),
  }
}

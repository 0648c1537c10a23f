/**
 * Every endpoint of the service, once: method, path template, whether it is signed, whether it
 * moves money, whether it carries an idempotency key and is retried, and the schemas of its body and
 * answer. The client builds its calls from this table and the sandbox its routes, so a path is
 * written in one place.
 */
import {
  BackofficeUserRequestSchema,
  CaptureRequestSchema,
  ConnectContractorRequestSchema,
  ContractorSchema,
  CreateStoreRequestSchema,
  EmailVerificationRequestSchema,
  OnboardingLinkRequestSchema,
  OnboardingLinkSchema,
  OnboardingStatusSchema,
  PaymentMethodsResponseSchema,
  PaymentResponseSchema,
  RefundRequestSchema,
  ServicePaymentDetailsRequestSchema,
  ServicePaymentRequestSchema,
  StorePaymentMethodsRequestSchema,
  UpdateStoreRequestSchema,
} from '@card-jwe/payment-validator'
import * as z from 'zod'
import {
  BackofficeUserResultSchema,
  ClientKeySchema,
  ContractorConnectionSchema,
  CountryListSchema,
  EmailVerificationResultSchema,
  ErasureResultSchema,
  IndustryCodeListSchema,
  ModificationResultSchema,
  RegistrationResultSchema,
  StoreListSchema,
  StorePaymentMethodsResultSchema,
  StoreSchema,
  UnsubscribeResultSchema,
  FeedPageEnvelopeSchema,
} from './responses.js'

/** The fixed first segments of every service path but email verification (spec: design rule 6). */
export const SERVICE_PATH_PREFIX = '/shopplatform/processor'

/**
 * The other direction: the shop's endpoints the service calls, at fixed paths (spec: "Shop-side
 * endpoints"; the settings paths carry `v3`, "Versioning" 1), behind HTTP Basic but the return.
 */
export const SHOP_SIDE_PATHS = Object.freeze({
  /** GET: the shop's settings, which the service reads at registration. */
  settings: '/shop-json/shop/v3/settings/general',
  /** POST: settings the service writes, `service_secret` first of all. */
  settingsBatch: '/shop-json/shop/v3/settings/general/batch',
  /** GET: where the onboarding page sends the merchant back to; the shop re-checks the status. */
  onboardingReturn: '/shop-json/service-payments/onboarding-redirect',
})

/** One endpoint of the service. */
export interface ServiceEndpoint<Answer extends z.ZodType = z.ZodType> {
  /** The HTTP method. */
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH'
  /** The path, with `{store_id}` and `{psp_reference}` where the call puts its ids. */
  readonly path: string
  /** Signed with `service_secret` (every call but registration). */
  readonly signed: boolean
  /** Creates, finishes or changes a payment: a repeat must never charge, capture or refund twice. */
  readonly movesMoney: boolean
  /**
   * The client sends an `Idempotency-Key` (the caller's, or one it generates per call), the same on
   * every retry: every call but a GET.
   */
  readonly idempotencyKey: boolean
  /** Retried on no answer, 429, 502, 503 and 504 within the call's deadline. */
  readonly retried: boolean
  /** The body's schema; `null` for a call without a body. */
  readonly body: z.ZodType | null
  /** The schema of a successful answer. */
  readonly answer: Answer
}

/** The body of registration: the shop's URL and the HTTP Basic pair the service presents to it. */
export const ShopRegistrationRequestSchema = z.strictObject({
  /** The shop's base URL, http or https. */
  shopUrl: z.url({ protocol: /^https?$/ }).max(2000),
  /** 16-256 characters, no ":" (an HTTP Basic user-id cannot carry one). */
  key: z
    .string()
    .min(16)
    .max(256)
    .refine((key) => !key.includes(':'), { message: 'no ":" (HTTP Basic user-id)' }),
  /** 16-256 characters. */
  secret: z.string().min(16).max(256),
  /** A verified contractor and an onboarded store with the registration (the sandbox's quick start). */
  readyMadeStore: z.boolean().optional(),
})

/** The body of removing a shopper's stored card. */
export const UnsubscribeRequestSchema = z.strictObject({
  /** The shopper the card was stored for. */
  shopperReference: z.string().min(3).max(256),
  /** The stored card, from the payment methods' `storedPaymentMethods`. */
  storedPaymentMethodId: z.string().min(1).max(64),
})

const P = SERVICE_PATH_PREFIX

/** Signed, keyed and retried unless said otherwise; a GET carries no key. */
function endpoint<Answer extends z.ZodType>(
  method: ServiceEndpoint['method'],
  path: string,
  body: z.ZodType | null,
  answer: Answer,
  extra: Partial<Pick<ServiceEndpoint, 'signed' | 'movesMoney' | 'retried'>> = {},
): ServiceEndpoint<Answer> {
  return Object.freeze({
    method,
    path,
    signed: true,
    movesMoney: false,
    idempotencyKey: method !== 'GET',
    retried: true,
    body,
    answer,
    ...extra,
  })
}

/**
 * The service's endpoints by the client's method names. Paths the spec does not show are ours:
 * registration (`POST .../shop-registrations`) and changing a store (`PATCH .../stores/{store_id}`).
 */
export const ENDPOINTS = Object.freeze({
  /**
   * Unsigned, and not retried: the service calls the shop's settings endpoints before it answers, so
   * its 502 names the shop's failure, which a repeat meets again.
   */
  register: endpoint('POST', `${P}/shop-registrations`, ShopRegistrationRequestSchema, RegistrationResultSchema, {
    signed: false,
    retried: false,
  }),
  /** Sends the merchant a one-time code (the one path outside the prefix). */
  sendVerificationEmail: endpoint('POST', '/email-verification-messages', EmailVerificationRequestSchema, EmailVerificationResultSchema),
  /** Connects the merchant's back-office user with the emailed code. */
  connectBackofficeUser: endpoint('PUT', `${P}/backoffice-user`, BackofficeUserRequestSchema, BackofficeUserResultSchema),
  /** The contractors the back-office user may act for. */
  listContractors: endpoint('GET', `${P}/backoffice-user-contractors`, null, z.array(ContractorSchema)),
  /** Makes a contractor current for the following calls. */
  connectContractor: endpoint('PUT', `${P}/contractor`, ConnectContractorRequestSchema, ContractorConnectionSchema),
  /** The industry codes a store may have. */
  industryCodes: endpoint('GET', `${P}/industry-codes`, null, IndustryCodeListSchema),
  /** The countries a store may be in. */
  countries: endpoint('GET', `${P}/countries`, null, CountryListSchema),
  /** The stores of the current contractor. */
  listStores: endpoint('GET', `${P}/stores`, null, StoreListSchema),
  /** Creates a store (and its contractor, when new). */
  createStore: endpoint('POST', `${P}/stores`, CreateStoreRequestSchema, StoreSchema),
  /** Changes a store's label, phone or address (ours: the spec shows no such call). */
  updateStore: endpoint('PATCH', `${P}/stores/{store_id}`, UpdateStoreRequestSchema, StoreSchema),
  /** Turns a store's payment methods on or off. */
  setStorePaymentMethods: endpoint(
    'PUT',
    `${P}/stores/{store_id}/payment-methods`,
    StorePaymentMethodsRequestSchema,
    StorePaymentMethodsResultSchema,
  ),
  /** What the service still needs from the current contractor. */
  onboardingStatus: endpoint('GET', `${P}/onboarding-status`, null, OnboardingStatusSchema),
  /** A link to the hosted onboarding pages. */
  createOnboardingLink: endpoint('POST', `${P}/onboarding-links`, OnboardingLinkRequestSchema, OnboardingLinkSchema),
  /** Creates a payment. */
  createPayment: endpoint('POST', `${P}/stores/{store_id}/payments`, ServicePaymentRequestSchema, PaymentResponseSchema, {
    movesMoney: true,
  }),
  /** Finishes a payment after a shopper step. */
  paymentDetails: endpoint('POST', `${P}/stores/{store_id}/payment-details`, ServicePaymentDetailsRequestSchema, PaymentResponseSchema, {
    movesMoney: true,
  }),
  /** Captures all or part of an authorised payment. */
  capture: endpoint('POST', `${P}/payments/{psp_reference}/captures`, CaptureRequestSchema, ModificationResultSchema, { movesMoney: true }),
  /** Refunds all or part of a captured payment. */
  refund: endpoint('POST', `${P}/payments/{psp_reference}/refunds`, RefundRequestSchema, ModificationResultSchema, { movesMoney: true }),
  /** Cancels an authorised payment that is not captured. */
  cancel: endpoint('POST', `${P}/payments/{psp_reference}/cancels`, null, ModificationResultSchema, { movesMoney: true }),
  /** Erases the shopper data of one payment. */
  subjectErasure: endpoint('POST', `${P}/payments/{psp_reference}/subject-erasure-requests`, null, ErasureResultSchema),
  /** The payments changed after a cursor. */
  updatedPayments: endpoint('GET', `${P}/updated-payments`, null, FeedPageEnvelopeSchema),
  /** The payment methods a store offers a shopper. */
  checkoutPaymentMethods: endpoint('GET', `${P}/stores/{store_id}/checkout-payment-methods`, null, PaymentMethodsResponseSchema),
  /** A store's client key. */
  clientKey: endpoint('GET', `${P}/stores/{store_id}/client-key`, null, ClientKeySchema),
  /** The client key of the service's web component. */
  webComponentClientKey: endpoint('GET', `${P}/web-component-client-key`, null, ClientKeySchema),
  /** Removes a shopper's stored card. */
  unsubscribe: endpoint('POST', `${P}/stores/{store_id}/unsubscribe-requests`, UnsubscribeRequestSchema, UnsubscribeResultSchema),
})

/** The name of one endpoint in {@link ENDPOINTS}. */
export type EndpointName = keyof typeof ENDPOINTS

/** "METHOD path-template", for messages and logs: names the endpoint, never an id. */
export const describeEndpoint = (endpoint: ServiceEndpoint): string => `${endpoint.method} ${endpoint.path}`

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
import type { FetchLike } from './fetch-like.js'
import type { Backoff } from './lib/backoff.js'
import type { TelemetryOptions } from './lib/call-telemetry.js'
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
  /** How long a call may take, retries included, unless its own options set a time (registration's is its own). */
  readonly deadlineMs: number
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
   * with only `id`, `brand`, `lastFour`, `expiryMonth`, `expiryYear` and `holderName` when given. A
   * stored method that does not read as a card (another kind, a field out of its format) is left out.
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

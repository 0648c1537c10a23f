import type { FeedPage } from './updated-payments-feed.js'
import type {
  Amount,
  BackofficeUserRequest,
  CreateStoreRequest,
  PaymentDetailsRequest,
  PaymentMethodsResponse,
  PaymentRequest,
  PaymentResponse,
  StorePaymentMethodsRequest,
} from '@card-jwe/payment-validator'
import type { KeyedCall, RefundCall } from './keyed-call.js'

export type { KeyedCall, RefundCall } from './keyed-call.js'

/** The service's credentials (spec: "Values a shop stores"). */
export interface ServiceCredentials {
  /** The shop's id at the service, from registration. */
  readonly shopId: string
  /** The secret the service pushed to the shop's settings endpoint: signs every call. */
  readonly serviceSecret: string
}

/** The service's answer to a capture, refund or cancel: received; the outcome comes through the feed. */
export interface ModificationAnswer {
  /** The modification's own reference. */
  readonly pspReference: string
  /** `received`. */
  readonly status: string
}

/**
 * The port the back end talks to the service through (`paymentServiceFromClient` adapts
 * `@card-jwe/service-client`). A method either resolves with the service's answer or rejects with
 * a {@link PaymentServiceError} saying whether the service refused or the outcome is unknown.
 */
export interface PaymentService {
  /** POST payments for the store. */
  createPayment(storeId: string, body: PaymentRequest, call: KeyedCall): Promise<PaymentResponse>
  /** POST payment-details: the answer of a 3-D Secure step or a redirect. */
  paymentDetails(storeId: string, body: PaymentDetailsRequest, call: KeyedCall): Promise<PaymentResponse>
  /** Captures `amount` of an authorised payment. */
  capture(pspReference: string, amount: Amount, call: KeyedCall): Promise<ModificationAnswer>
  /** Refunds `amount` of a captured payment; by line when `call.lineItems` names the payment's lines. */
  refund(pspReference: string, amount: Amount, call: RefundCall): Promise<ModificationAnswer>
  /** Cancels an authorised, uncaptured payment. */
  cancel(pspReference: string, call: KeyedCall): Promise<ModificationAnswer>
  /** One page of the updated-payments feed after `after`. */
  updatedPayments(query: { readonly after: number; readonly limit?: number }): Promise<FeedPage>
  /** The methods the store may offer the shopper. */
  checkoutPaymentMethods(
    storeId: string,
    query: { readonly country?: string; readonly currency?: string; readonly shopper?: string },
  ): Promise<PaymentMethodsResponse>
  /** Removes a shopper's saved card (optional: a port without it makes `removeSavedCard` a TypeError). */
  unsubscribe?(storeId: string, body: SavedCard, call: KeyedCall): Promise<SavedCardRemoval>
  /** Asks the service to erase the shopper's data of one payment (optional, as `unsubscribe`). */
  subjectErasure?(pspReference: string, call: KeyedCall): Promise<ErasureRequest>
}

/** A shopper's saved card as the service lists it in `storedPaymentMethods`. */
export interface StoredCard {
  /** What `removeSavedCard` takes as `storedPaymentMethodId`. */
  readonly id: string
  /** The card's brand (visa, mc, ...), when the service says. */
  readonly brand?: string
  /** The last four digits, when the service says: enough for the shopper to tell cards apart. */
  readonly lastFour?: string
  /** Other fields the service gives (expiry, type), passed on as they come. */
  readonly [other: string]: unknown
}

/** The service's answer to removing a saved card. */
export interface SavedCardRemoval {
  /** `disabled`: the card can no longer be used. */
  readonly status: string
}

/** The service's answer to an erasure request for one payment. */
export interface ErasureRequest {
  /** The payment whose shopper data is to be erased. */
  readonly pspReference: string
  /** `received`: the service took the request. */
  readonly status: string
}

/** A shopper's saved card, as the payment methods' `storedPaymentMethods` name it. */
export interface SavedCard {
  /** The shop's own id of the shopper, sent as `shopperReference` when the card was saved. */
  readonly shopperReference: string
  /** The `id` of the card in `storedPaymentMethods`. */
  readonly storedPaymentMethodId: string
}

/** A store as the set-up reads it: the id, and the contractor and label when the service gives them. */
export interface ServiceStore {
  /** The `store_id` of the payment calls. */
  readonly id: string
  /** The contractor the store belongs to. */
  readonly contractorId?: string | undefined
  /** The store's name in the merchant's back office. */
  readonly label?: string | undefined
  readonly [other: string]: unknown
}

/** A legal entity that receives the funds (spec: "Contractor"). */
export interface ServiceContractor {
  /** UUID. */
  readonly id: string
  /** Legal name. */
  readonly name: string
  /** Country code from the countries list. */
  readonly country: string
  /** `organization`, or the value for an individual. */
  readonly type: string
  readonly [other: string]: unknown
}

/** One thing onboarding still needs (spec: "Onboarding status", `errors[]`). */
export interface OnboardingProblem {
  /** What is missing. */
  readonly problem: string
  /** What the merchant can do about it. */
  readonly actions: readonly string[]
}

/** The current contractor's onboarding status (spec: "Onboarding status"). */
export interface ServiceOnboardingStatus {
  /** e.g. `verification-required`; the cleared value is `ONBOARDED_STATUS`. */
  readonly status: string
  /** Present when something is missing. */
  readonly errors?: readonly OnboardingProblem[] | undefined
}

/** One payment method of a store, on or off. */
export interface StorePaymentMethodState {
  /** `scheme` (cards) or `ideal`. */
  readonly type: string
  /** Offered at checkout. */
  readonly enabled: boolean
}

/** A store's payment methods after a change, as the service answers. */
export interface StorePaymentMethodsAnswer {
  /** The store changed. */
  readonly storeId: string
  /** Every method of the store and whether it is on now. */
  readonly paymentMethods: readonly StorePaymentMethodState[]
}

/** A country a store may be in. */
export interface ServiceCountry {
  /** ISO 3166-1 alpha-2. */
  readonly code: string
  /** English name. */
  readonly name: string
}

/** An industry code (merchant category code) a store may have. */
export interface ServiceIndustryCode {
  /** The code to send with a store. */
  readonly code: string
  /** What it stands for. */
  readonly description: string
}

/**
 * The merchant set-up calls (spec: "Endpoints" rules 3 and 4), signed like the payment calls but
 * needing no store. Rejects with a {@link PaymentServiceError} as {@link PaymentService} does; a
 * refusal keeps the service's message, which names the merchant's field and rule.
 */
export interface MerchantService {
  /** POST email-verification-messages: a one-time code to the merchant. */
  sendVerificationEmail(email: string): Promise<unknown>
  /** PUT backoffice-user: the code connects the merchant's account. `call`: the key its repeats share. */
  connectBackofficeUser(body: BackofficeUserRequest, call?: KeyedCall): Promise<unknown>
  /** GET backoffice-user-contractors; `[]` when none. */
  listContractors(): Promise<ServiceContractor[]>
  /** PUT contractor: makes it current for the calls that follow. */
  connectContractor(contractorId: string): Promise<unknown>
  /** GET stores: the current contractor's; connect the one meant first (rule 3). */
  listStores(): Promise<ServiceStore[]>
  /** POST stores: the store, and its contractor when new (then current). `call`: the key its repeats share. */
  createStore(body: CreateStoreRequest, call?: KeyedCall): Promise<ServiceStore>
  /** POST onboarding-links: where to send the merchant. */
  createOnboardingLink(): Promise<OnboardingLink>
  /** GET onboarding-status of the current contractor. */
  onboardingStatus(): Promise<ServiceOnboardingStatus>
  /** GET countries. */
  countries(): Promise<ServiceCountry[]>
  /** GET industry-codes. */
  industryCodes(): Promise<ServiceIndustryCode[]>
  /** PUT .../payment-methods: each listed method on or off. */
  setStorePaymentMethods(storeId: string, body: StorePaymentMethodsRequest): Promise<StorePaymentMethodsAnswer>
}

/** The spec's onboarding link. */
export interface OnboardingLink {
  /** The processor's page; the merchant comes back through the shop's onboarding-return endpoint. */
  readonly uri: string
}

/**
 * What the back end's `service` factory returns. The merchant calls are optional, so a factory
 * that gives only a {@link PaymentService} keeps working; `backend.merchantSetup` then throws a
 * TypeError. `connectServiceClient(...).service` gives both.
 */
export type ShopService = PaymentService & Partial<MerchantService>

/** The unsigned registration call (spec: "Shop registration"); the service then calls the shop's settings endpoints. */
export type RegisterShop = (
  shop: {
    readonly shopUrl: string
    readonly key: string
    readonly secret: string
    readonly readyMadeStore?: boolean
  },
  /** Stored before the first call and sent again on every repeat: the service answers a repeat with the first registration. */
  options?: { readonly idempotencyKey?: string },
) => Promise<{
  /** The shop's id at the service. */
  readonly shopId: string
  /** The ready-made store, when one was asked for. */
  readonly storeId?: string | undefined
}>

/**
 * `refused`: the service answered no (nothing happened, or what happened is final).
 * `unknown`: no answer (network, timeout, the service overloaded): it may have acted; repeat with the same key.
 */
export type ServiceFailureKind = 'refused' | 'unknown'

const PAYMENT_SERVICE_ERROR = Symbol.for('@card-jwe/shop-backend.PaymentServiceError')

/** A failed service call, classified. `code` is the service's error code, never a value. */
export class PaymentServiceError extends Error {
  /** Always "PaymentServiceError". */
  override readonly name = 'PaymentServiceError'
  /** `instanceof` holds across two copies of this package (a shop's own port may import another). */
  readonly [PAYMENT_SERVICE_ERROR] = true
  /** True for an instance made by any copy of this package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && PAYMENT_SERVICE_ERROR in value
  }
  constructor(
    /** Refused, or the outcome unknown. */
    readonly kind: ServiceFailureKind,
    /** The service's error code (or SERVICE_UNREACHABLE, SERVICE_TIMEOUT). */
    readonly code: string,
    message: string,
    /** The service's HTTP status, when it answered. */
    readonly status?: number,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options)
  }
}

import type { Amount, PaymentDetailsRequest, PaymentMethodsResponse, PaymentRequest, PaymentResponse } from '@card-jwe/payment-validator'

/** The service's credentials (spec: "Values a shop stores"). */
export interface ServiceCredentials {
  readonly shopId: string
  readonly serviceSecret: string
}

/** One record of the updated-payments feed, as far as the back end reads it. */
export interface FeedRecord {
  readonly sequence: number
  readonly pspReference: string
  readonly status: string
  readonly amount: Amount
  readonly capturedAmount: Amount
  readonly refundedAmount: Amount
  readonly metadata: Readonly<Record<string, unknown>>
  readonly [other: string]: unknown
}

/** One page of the feed. */
export interface FeedPage {
  readonly payments: readonly FeedRecord[]
  readonly cursor: number
  readonly hasMore: boolean
}

/** The service's answer to a capture, refund or cancel: received; the outcome comes through the feed. */
export interface ModificationAnswer {
  readonly pspReference: string
  readonly status: string
}

/** Every money call carries the key the ledger stored before the call. */
export interface KeyedCall {
  readonly idempotencyKey: string
}

/**
 * The port the back end talks to the service through (`paymentServiceFromClient` adapts
 * `@card-jwe/service-client`). A method either resolves with the service's answer or rejects with
 * a {@link PaymentServiceError} saying whether the service refused or the outcome is unknown.
 */
export interface PaymentService {
  createPayment(storeId: string, body: PaymentRequest, call: KeyedCall): Promise<PaymentResponse>
  paymentDetails(storeId: string, body: PaymentDetailsRequest, call: KeyedCall): Promise<PaymentResponse>
  capture(pspReference: string, amount: Amount, call: KeyedCall): Promise<ModificationAnswer>
  refund(pspReference: string, amount: Amount, call: KeyedCall): Promise<ModificationAnswer>
  cancel(pspReference: string, call: KeyedCall): Promise<ModificationAnswer>
  updatedPayments(query: { readonly after: number; readonly limit?: number }): Promise<FeedPage>
  checkoutPaymentMethods(storeId: string, query: { readonly country?: string; readonly currency?: string }): Promise<PaymentMethodsResponse>
}

/** The unsigned registration call (spec: "Shop registration"); the service then calls the shop's settings endpoints. */
export type RegisterShop = (shop: {
  readonly shopUrl: string
  readonly key: string
  readonly secret: string
  readonly readyMadeStore?: boolean
}) => Promise<{
  readonly shopId: string
  readonly storeId?: string | undefined
}>

/**
 * `refused`: the service answered no (nothing happened, or what happened is final).
 * `unknown`: no answer (network, timeout, the service overloaded): it may have acted; repeat with the same key.
 */
export type ServiceFailureKind = 'refused' | 'unknown'

/** A failed service call, classified. `serviceCode` is the service's error code, never a value. */
export class PaymentServiceError extends Error {
  /** Always "PaymentServiceError". */
  override readonly name = 'PaymentServiceError'
  constructor(
    readonly kind: ServiceFailureKind,
    readonly serviceCode: string,
    message: string,
    readonly status?: number,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options)
  }
}

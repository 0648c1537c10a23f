import type { RequestInfo } from '../shop-backend-types.js'

/** What the back end's Hono app gets beside the request: `fetch(request, info)` passes `info` here. */
export interface BackendEnv {
  readonly Bindings: { readonly info: RequestInfo }
  /** Set by the payment routes: telemetry reads the answer here, not by parsing a copy of the response. */
  readonly Variables: { paymentAnswer?: PaymentAnswerSummary }
}

/** What telemetry may say of a payment's answer: its result code and its action, nothing else. */
export interface PaymentAnswerSummary {
  readonly resultCode?: unknown
  readonly action?: { readonly type?: unknown; readonly subtype?: unknown } | undefined
}

/**
 * The back end's metric names, in one place, with their units. The
 * service client's call duration is its own: `card_jwe.service.call.duration`.
 */
export const METRICS = Object.freeze({
  /** Counter, `{payment}`: answers of the checkout's payments and payment-details routes, by `card_jwe.result_code`. */
  payments: 'card_jwe.checkout.payments',
  /** Counter, `{action}`: actions those answers gave the page, by `card_jwe.action.type` and `card_jwe.action.subtype`. */
  actions: 'card_jwe.checkout.actions',
  /** Histogram, `s`: the checkout routes' answer times (OpenTelemetry's HTTP server convention). */
  requestDuration: 'http.server.request.duration',
  /** Gauge, `s`: since any instance last read the updated-payments feed. */
  pollerLag: 'card_jwe.poller.lag',
  /** Gauge, `{change}`: order changes not delivered to `onOrderChange` yet. */
  outboxBacklog: 'card_jwe.outbox.backlog',
  /** Gauge, `{record}`: feed records kept as problems (not applied, retried). */
  pollProblems: 'card_jwe.poller.problems',
  /** Gauge, `{payment}`: payments whose outcome has been open over 15 minutes (no answer, or being confirmed). */
  openPayments: 'card_jwe.payments.open_too_long',
  /** Gauge, `{modification}`: captures, refunds and cancels unanswered over 15 minutes (never sent, or the outcome open). */
  openModifications: 'card_jwe.modifications.open_too_long',
})

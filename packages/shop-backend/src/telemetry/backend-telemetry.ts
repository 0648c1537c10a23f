import { type Attributes, type MeterProvider, metrics, type Tracer, type TracerProvider, trace } from '@opentelemetry/api'
import type { BackendContext } from '../backend-context.js'
import { openTooLongBefore } from '../ledger/open-payments.js'
import { pollLagMs } from '../poller/poll-read-at.js'
import { METRICS } from './metric-names.js'
import { PACKAGE } from './version.js'

/** Where the back end's spans and metrics go; the global providers (a no-op until an SDK registers) unless given. */
export interface TelemetryOptions {
  /** Spans of the checkout's requests; default the global one. */
  readonly tracerProvider?: TracerProvider
  /**
   * The back end's counters, histogram and gauges; default the global one. The gauges are registered
   * when the back end is made: register a global SDK before that, or pass it here.
   */
  readonly meterProvider?: MeterProvider
}

/** What the HTTP edge records per checkout answer. */
export interface BackendTelemetry {
  readonly tracer: Tracer
  /** One answer of a checkout route: its time, and for payments its result code and action. */
  answered(attributes: Attributes, seconds: number, payment?: { resultCode?: unknown; action?: unknown }): void
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.length <= 64 ? value : undefined)

/**
 * The back end's tracer and instruments. Counters are made again when the global provider changes
 * (an SDK registered after the back end); the gauges read the store when a reader collects, so an
 * unused SDK costs no reads.
 */
export function createBackendTelemetry(options: TelemetryOptions, context: Pick<BackendContext, 'store' | 'now'>): BackendTelemetry {
  const providerOf = () => options.meterProvider ?? metrics.getMeterProvider()
  const meterOf = (provider: MeterProvider) => provider.getMeter(PACKAGE.name, PACKAGE.version)
  observeLedger(meterOf(providerOf()), context)
  let made: { provider: MeterProvider; instruments: ReturnType<typeof instrumentsOf> } | undefined
  const instruments = () => {
    const provider = providerOf()
    if (made?.provider !== provider) made = { provider, instruments: instrumentsOf(meterOf(provider)) }
    return made.instruments
  }
  return {
    tracer: (options.tracerProvider ?? trace.getTracerProvider()).getTracer(PACKAGE.name, PACKAGE.version),
    answered(attributes, seconds, payment) {
      const { requests, payments, actions } = instruments()
      requests.record(seconds, attributes)
      const resultCode = str(payment?.resultCode)
      if (resultCode === undefined) return
      payments.add(1, { 'http.route': attributes['http.route'], 'card_jwe.result_code': resultCode })
      const action = (payment?.action ?? undefined) as { type?: unknown; subtype?: unknown } | undefined
      const type = str(action?.type)
      if (type !== undefined)
        actions.add(1, {
          'card_jwe.action.type': type,
          ...(str(action?.subtype) ? { 'card_jwe.action.subtype': str(action?.subtype) } : {}),
        })
    },
  }
}

function instrumentsOf(meter: ReturnType<MeterProvider['getMeter']>) {
  return {
    requests: meter.createHistogram(METRICS.requestDuration, {
      description: "Duration of the checkout routes' answers",
      unit: 's',
      // The HTTP semantic conventions' buckets, in seconds (the SDK's default ones are for milliseconds).
      advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10] },
    }),
    payments: meter.createCounter(METRICS.payments, {
      description: 'Answers of payments and payment-details, by result code',
      unit: '{payment}',
    }),
    actions: meter.createCounter(METRICS.actions, {
      description: 'Actions given to the page (3-D Secure, redirects), by type',
      unit: '{action}',
    }),
  }
}

/** The ledger's gauges, read together when collected; a store out of reach reports nothing that round. */
function observeLedger(meter: ReturnType<MeterProvider['getMeter']>, context: Pick<BackendContext, 'store' | 'now'>): void {
  const lag = meter.createObservableGauge(METRICS.pollerLag, {
    description: 'Since any instance last read the updated-payments feed',
    unit: 's',
  })
  const backlog = meter.createObservableGauge(METRICS.outboxBacklog, {
    description: 'Order changes not delivered to onOrderChange yet',
    unit: '{change}',
  })
  const problems = meter.createObservableGauge(METRICS.pollProblems, {
    description: 'Feed records kept as problems, retried',
    unit: '{record}',
  })
  const open = meter.createObservableGauge(METRICS.openPayments, {
    description: 'Payments whose outcome has been open over 15 minutes: no answer, or being confirmed',
    unit: '{payment}',
  })
  const unanswered = meter.createObservableGauge(METRICS.openModifications, {
    description: 'Captures, refunds and cancels unanswered over 15 minutes: never sent, or their outcome open',
    unit: '{modification}',
  })
  meter.addBatchObservableCallback(
    async (result) => {
      const [lagMs, undelivered, kept, openTooLong, unansweredTooLong] = await Promise.all([
        pollLagMs(context).catch(() => undefined),
        context.store.outboxBacklog().catch(() => undefined),
        context.store.listProblems().then(
          (list) => list.length,
          () => undefined,
        ),
        context.store.countOpenAttempts(openTooLongBefore(context)).catch(() => undefined),
        context.store.countOpenModifications(openTooLongBefore(context)).catch(() => undefined),
      ])
      if (lagMs !== undefined) result.observe(lag, lagMs / 1000)
      if (undelivered !== undefined) result.observe(backlog, undelivered)
      if (kept !== undefined) result.observe(problems, kept)
      if (openTooLong !== undefined) result.observe(open, openTooLong)
      if (unansweredTooLong !== undefined) result.observe(unanswered, unansweredTooLong)
    },
    [lag, backlog, problems, open, unanswered],
  )
}

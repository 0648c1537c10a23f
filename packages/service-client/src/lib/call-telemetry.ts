import { type Attributes, type MeterProvider, metrics, SpanKind, SpanStatusCode, type TracerProvider, trace } from '@opentelemetry/api'
import type { ServiceEndpoint } from '../endpoints.js'
import { PACKAGE } from './version.js'

/** Where the client's spans and metrics go; the global providers (a no-op until an SDK registers) unless given. */
export interface TelemetryOptions {
  /** Spans of each call; default the global one (`trace.setGlobalTracerProvider`, or an SDK's `register()`). */
  readonly tracerProvider?: TracerProvider
  /** The call-duration histogram; default the global one (`metrics.setGlobalMeterProvider`). */
  readonly meterProvider?: MeterProvider
}

/** How a call ended, for its span and its duration's `outcome` attribute. */
export type CallOutcome =
  | { readonly kind: 'ok'; readonly status: number; readonly resultCode?: string | undefined }
  | { readonly kind: 'refused' | 'invalid'; readonly status: number; readonly errorCode: string }
  | { readonly kind: 'unreachable'; readonly errorCode: 'SERVICE_TIMEOUT' | 'SERVICE_UNREACHABLE' }

/** The metric's name: seconds per call, every attempt and wait included. */
export const CALL_DURATION_METRIC = 'card_jwe.service.call.duration'
// Seconds: from a quick read to the default 15 s deadline.
const BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30]

/**
 * A span and a duration per call. Attributes are the endpoint's template (ids as `{store_id}`), the
 * method, the status, a code and the attempts: never a header, a body, an idempotency key or a URL's
 * values. The meter is looked up per call, so an SDK registered after the client still hears it.
 */
export function callTelemetry(options: TelemetryOptions, baseUrl: string) {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(PACKAGE.name, PACKAGE.version)
  const server = new URL(baseUrl)
  const port = Number(server.port || (server.protocol === 'https:' ? 443 : 80))
  let histogram: { provider: MeterProvider; record: (seconds: number, attributes: Attributes) => void } | undefined
  function durationOf(provider: MeterProvider) {
    if (histogram?.provider !== provider) {
      const instrument = provider.getMeter(PACKAGE.name, PACKAGE.version).createHistogram(CALL_DURATION_METRIC, {
        description: 'Duration of a call to the payment service, retries and waits included',
        unit: 's',
        advice: { explicitBucketBoundaries: BUCKETS },
      })
      histogram = { provider, record: (seconds, attributes) => instrument.record(seconds, attributes) }
    }
    return histogram
  }

  return function start(endpoint: ServiceEndpoint) {
    const base: Attributes = { 'http.request.method': endpoint.method, 'url.template': endpoint.path }
    const span = tracer.startSpan(`${endpoint.method} ${endpoint.path}`, {
      kind: SpanKind.CLIENT,
      attributes: { ...base, 'server.address': server.hostname, 'server.port': port },
    })
    const started = performance.now()
    return function end(outcome: CallOutcome, attempts: number): void {
      const code = outcome.kind === 'ok' ? undefined : outcome.errorCode
      const status = outcome.kind === 'unreachable' ? undefined : outcome.status
      span.setAttributes({
        'card_jwe.service.attempts': attempts,
        'card_jwe.service.outcome': outcome.kind,
        ...(attempts > 1 ? { 'http.request.resend_count': attempts - 1 } : {}),
        ...(status === undefined ? {} : { 'http.response.status_code': status }),
        ...(code === undefined ? {} : { 'error.type': code }),
        ...(outcome.kind === 'ok' && outcome.resultCode ? { 'card_jwe.result_code': outcome.resultCode } : {}),
      })
      if (outcome.kind !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR })
      span.end()
      durationOf(options.meterProvider ?? metrics.getMeterProvider()).record((performance.now() - started) / 1000, {
        ...base,
        'card_jwe.service.outcome': outcome.kind,
        ...(code === undefined ? {} : { 'error.type': code }),
      })
    }
  }
}

import { context as otelContext, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import type { Hono } from 'hono'
import type { BackendTelemetry } from '../telemetry/backend-telemetry.js'
import type { BackendEnv } from './backend-env.js'

/**
 * A server span and a duration for each request on `routes` (the checkout's), named by the route as
 * configured. Attributes: method, route, status, the answer's result code and action type, and the
 * error's code; never the body, the order id or a header. Registered before the routes, so it wraps
 * them; a payment route leaves its answer on the context (parsing a copy of the response cost the
 * adapter its fast path).
 */
export function addRequestTelemetry(app: Hono<BackendEnv>, routes: readonly string[], telemetry: BackendTelemetry): void {
  for (const route of new Set(routes)) {
    app.use(route, async (c, next) => {
      const method = c.req.method
      const span = telemetry.tracer.startSpan(`${method} ${route}`, {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': method, 'http.route': route },
      })
      const started = performance.now()
      try {
        // Active for the request, so the service client's spans are its children where a context manager runs.
        await otelContext.with(trace.setSpan(otelContext.active(), span), next)
      } finally {
        const status = c.res.status
        const code = (c.error as { code?: unknown } | undefined)?.code
        const payment = status === 200 ? c.get('paymentAnswer') : undefined
        const errorType = typeof code === 'string' ? code : status >= 400 ? String(status) : undefined
        span.setAttributes({
          'http.response.status_code': status,
          ...(errorType === undefined ? {} : { 'error.type': errorType }),
          ...(typeof payment?.resultCode === 'string' ? { 'card_jwe.result_code': payment.resultCode } : {}),
          ...(typeof payment?.action?.type === 'string' ? { 'card_jwe.action.type': payment.action.type } : {}),
        })
        // A server span is an error for a 5xx only: a 4xx is the caller's (OpenTelemetry's HTTP convention).
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
        span.end()
        telemetry.answered(
          {
            'http.request.method': method,
            'http.route': route,
            'http.response.status_code': status,
            ...(errorType ? { 'error.type': errorType } : {}),
          },
          (performance.now() - started) / 1000,
          payment,
        )
      }
    })
  }
}

/**
 * A span per call, against a real loopback server, recorded by the OpenTelemetry SDK's in-memory
 * exporter: the endpoint's template as its name, the outcome, the attempts; never a key or a body.
 */
import { readFileSync } from 'node:fs'
import { SpanStatusCode, trace } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { afterEach, describe, expect, it } from 'vitest'
import { PACKAGE } from '../src/lib/version.js'
import { authorised, CARD_MARKER, credentials, fastClient, payment, PSP, rejection, STORE } from './support/fixtures.js'
import { misbehavingServer, type MisbehavingServer, reply } from './support/misbehaving-server.js'

let server: MisbehavingServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

function recorder() {
  const exporter = new InMemorySpanExporter()
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  return { exporter, tracerProvider }
}

describe('a span per service call', () => {
  it('names it by method and path template, with the result code and the attempts, on a retried payment', async () => {
    server = await misbehavingServer((_, i) => (i < 1 ? reply.json(503, { errorCode: 'BUSY' }) : reply.json(200, authorised)))
    const { exporter, tracerProvider } = recorder()
    const { client } = fastClient(server.url, { tracerProvider })
    await client.createPayment(STORE, payment, { idempotencyKey: 'order-42-attempt-0' })
    const [span] = exporter.getFinishedSpans()
    expect(span?.name).toBe('POST /shopplatform/processor/stores/{store_id}/payments')
    expect(span?.instrumentationScope).toMatchObject({ name: '@card-jwe/service-client', version: PACKAGE.version })
    expect(span?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.template': '/shopplatform/processor/stores/{store_id}/payments',
      'http.response.status_code': 200,
      'card_jwe.result_code': 'Authorised',
      'card_jwe.service.outcome': 'ok',
      'card_jwe.service.attempts': 2,
      'http.request.resend_count': 1,
    })
    const all = JSON.stringify(exporter.getFinishedSpans().map((s) => [s.name, s.attributes, s.events]))
    for (const secret of ['order-42-attempt-0', CARD_MARKER, credentials.serviceSecret, STORE]) expect(all).not.toContain(secret)
  })

  it("marks a refusal an error with the service's code, and no answer with the client's", async () => {
    server = await misbehavingServer(() =>
      reply.json(422, { status: 422, errorCode: 'AMOUNT_TOO_HIGH', message: 'no', errorType: 'validation' }),
    )
    const { exporter, tracerProvider } = recorder()
    const { client } = fastClient(server.url, { tracerProvider })
    await rejection(client.capture(PSP, { currency: 'EUR', value: 1 }))
    const [refused] = exporter.getFinishedSpans()
    expect(refused?.name).toBe('POST /shopplatform/processor/payments/{psp_reference}/captures')
    expect(refused?.status.code).toBe(SpanStatusCode.ERROR)
    expect(refused?.attributes).toMatchObject({
      'error.type': 'AMOUNT_TOO_HIGH',
      'http.response.status_code': 422,
      'card_jwe.service.outcome': 'refused',
    })
    exporter.reset()
    server = await misbehavingServer(() => reply.reset())
    const { client: unreachable } = fastClient(server.url, { tracerProvider, deadlineMs: 100 })
    await rejection(unreachable.updatedPayments())
    expect(exporter.getFinishedSpans()[0]?.attributes).toMatchObject({
      'error.type': 'SERVICE_UNREACHABLE',
      'card_jwe.service.outcome': 'unreachable',
    })
  })

  it('uses the global tracer provider when none is given, registered after the client was made', async () => {
    server = await misbehavingServer(() => reply.json(200, { payments: [], cursor: 0, hasMore: false }))
    const { client } = fastClient(server.url)
    const { exporter, tracerProvider } = recorder()
    trace.setGlobalTracerProvider(tracerProvider)
    try {
      await client.updatedPayments()
      expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['GET /shopplatform/processor/updated-payments'])
    } finally {
      trace.disable()
    }
  })

  it("names its tracer with package.json's version", () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string }
    expect(PACKAGE).toEqual({ name: manifest.name, version: manifest.version })
  })
})

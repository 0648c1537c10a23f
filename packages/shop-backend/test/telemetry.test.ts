import { CHALLENGE_ANSWER } from '@card-jwe/sandbox'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { METRICS } from '../src/index.js'
import { PACKAGE } from '../src/telemetry/version.js'
import { readFileSync } from 'node:fs'
import { type TestShop, useWorld } from './support/shop.js'
import { telemetryRecorder } from './support/telemetry.js'
import { answerChallenge, runThreeDSMethod } from './support/threeds.js'

const { shop, world } = useWorld()
// Global, as a shop's SDK set-up registers it: the service client (made by connectServiceClient) reports there too.
const recorder = telemetryRecorder()
beforeAll(() => recorder.register())
afterAll(() => recorder.unregister())

const tokenOf = (body: Record<string, unknown>) => (body.action as { token: string }).token
const pointsOf = async (name: string) => (await recorder.collect()).get(name)?.points ?? []
/** A gauge's values as collected now. */
const gaugeValues = async (name: string) => (await pointsOf(name)).map((p) => p.value)

/** One list of the admin's /problems answer, as the shop's admin page reads it. */
async function problemsListed(s: TestShop, list: 'openPayments' | 'openModifications'): Promise<unknown[]> {
  const answer = await s.backend.fetch(new Request('http://shop.test/api/admin/problems'), { ip: '127.0.0.1' })
  return ((await answer.json()) as Record<typeof list, unknown[]>)[list]
}
const valueWith = (points: ReadonlyArray<{ attributes: Record<string, unknown>; value: unknown }>, attributes: Record<string, unknown>) =>
  points.find((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v))?.value

describe('spans and metrics through @opentelemetry/api', () => {
  it('a challenged card payment: a span per checkout request and service call, payments by result code, actions by type', async () => {
    const s = await shop()
    const card = findTestCard({ brand: 'visa', threeDSecure: 'challenge', outcome: 'authorised' })
    const order = s.createOrder()
    const submission = await s.cardSubmission(order, card)
    await s.backend.fetch(new Request('http://shop.test/api/config'))
    const started = await s.post('/api/payments', submission)
    expect(started.body).toMatchObject({ resultCode: 'IdentifyShopper' })
    const challenge = await s.post('/api/payment-details', {
      orderId: order.id,
      details: { threeDSResult: await runThreeDSMethod(tokenOf(started.body)) },
    })
    expect(challenge.body).toMatchObject({ resultCode: 'ChallengeShopper' })
    const answered = await answerChallenge(tokenOf(challenge.body), CHALLENGE_ANSWER)
    expect((await s.post('/api/payment-details', { orderId: order.id, details: { threeDSResult: answered } })).body).toEqual({
      resultCode: 'Authorised',
    })
    await s.backend.poller.pollNow()

    const spans = recorder.spans.getFinishedSpans()
    const names = spans.map((span) => span.name)
    expect(names).toEqual(expect.arrayContaining(['GET /api/config', 'POST /api/payments', 'POST /api/payment-details']))
    expect(names).toContain('POST /shopplatform/processor/stores/{store_id}/payments')
    expect(names).toContain('GET /shopplatform/processor/updated-payments')
    const paymentSpan = spans.find((span) => span.name === 'POST /api/payments')!
    expect(paymentSpan.instrumentationScope).toEqual({ name: '@card-jwe/shop-backend', version: PACKAGE.version, schemaUrl: undefined })
    expect(paymentSpan.attributes).toMatchObject({
      'http.route': '/api/payments',
      'http.response.status_code': 200,
      'card_jwe.result_code': 'IdentifyShopper',
      'card_jwe.action.type': 'threeDS2',
    })
    const detailsResults = spans
      .filter((span) => span.name === 'POST /api/payment-details')
      .map((span) => span.attributes['card_jwe.result_code'])
    expect(detailsResults).toEqual(['ChallengeShopper', 'Authorised'])

    const payments = await pointsOf(METRICS.payments)
    for (const resultCode of ['IdentifyShopper', 'ChallengeShopper', 'Authorised'])
      expect(valueWith(payments, { 'card_jwe.result_code': resultCode })).toBe(1)
    const actions = await pointsOf(METRICS.actions)
    expect(valueWith(actions, { 'card_jwe.action.type': 'threeDS2', 'card_jwe.action.subtype': 'challenge' })).toBe(1)
    expect(valueWith(actions, { 'card_jwe.action.type': 'threeDS2', 'card_jwe.action.subtype': 'fingerprint' })).toBe(1)
    const calls = await pointsOf('card_jwe.service.call.duration')
    expect(
      valueWith(calls, { 'url.template': '/shopplatform/processor/stores/{store_id}/payments', 'card_jwe.service.outcome': 'ok' }),
    ).toMatchObject({ count: 1 })
    const collected = await recorder.collect()
    expect(collected.get(METRICS.outboxBacklog)?.points[0]?.value).toBe(0)
    expect(collected.get(METRICS.pollProblems)?.points[0]?.value).toBe(0)
    expect(collected.get(METRICS.pollerLag)).toMatchObject({ unit: 's', scope: '@card-jwe/shop-backend' })

    // Nothing secret in any span's name, attribute or event, nor in any metric's attributes.
    const attempts = await s.store.listAttempts(String(order.id))
    const keys = attempts.map((a) => a.idempotencyKey)
    const readyMade = world().sandbox.readyMadeShop
    const paymentMethod = submission.paymentMethod as Record<string, string>
    const everything = JSON.stringify([
      spans.map((span) => [span.name, span.attributes, span.events, span.links]),
      [...collected.values()].map((metric) => metric.points.map((p) => p.attributes)),
    ])
    const secrets = [
      card.number,
      card.securityCode,
      ...Object.values(paymentMethod).filter((v) => v.length > 20),
      ...keys,
      readyMade.serviceSecret,
    ]
    expect(secrets.filter((secret) => secret && everything.includes(secret))).toEqual([])
    expect(everything).not.toMatch(/Basic [A-Za-z0-9+/=]{8,}/)
  })

  it('counts and lists the payments whose outcome stayed open over 15 minutes: a gauge, and the admin problems', async () => {
    let now = Date.now()
    const s = await shop({ now: () => new Date(now), admin: { authorize: () => true } })
    await s.backend.poller.pollNow()
    const order = s.createOrder()
    // The service out of reach: nothing sent, the shopper leaves. No answer and no feed record will settle it.
    const asRuled = world().proxy.rule
    world().proxy.rule = (_method, path) => ({ action: path.endsWith('/payments') ? 'down' : 'forward' })
    try {
      expect((await s.post('/api/payments', await s.cardSubmission(order))).status).toBe(503)
    } finally {
      world().proxy.rule = asRuled
    }
    await s.backend.poller.pollNow()
    const openTooLong = () => gaugeValues(METRICS.openPayments)
    const listed = () => problemsListed(s, 'openPayments')
    now += 14 * 60_000
    expect(await openTooLong()).toEqual([0])
    expect(await listed()).toEqual([])
    now += 2 * 60_000
    expect(await openTooLong()).toEqual([1])
    const [open] = await s.store.listAttempts(String(order.id))
    expect(await listed()).toEqual([
      { orderId: String(order.id), attempt: 1, state: 'pending', methodType: 'scheme', since: open!.updatedAt },
    ])
    // The shopper back: the same attempt pays under its key, and nothing is open any more.
    expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
    expect(await openTooLong()).toEqual([0])
    expect(await listed()).toEqual([])
  })

  it('counts and lists the captures whose call went unanswered over 15 minutes: a gauge, and the admin problems', async () => {
    let now = Date.now()
    const s = await shop({ now: () => new Date(now), admin: { authorize: () => true } })
    const order = s.createOrder()
    expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
    // The merchant's capture finds the service out of reach: stored under its key, its outcome open.
    const asRuled = world().proxy.rule
    world().proxy.rule = (_method, path) => ({ action: path.endsWith('/captures') ? 'down' : 'forward' })
    const requestId = 'capture-click-0001'
    try {
      await expect(s.backend.capture(order.id, { requestId })).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
    } finally {
      world().proxy.rule = asRuled
    }
    const unansweredTooLong = () => gaugeValues(METRICS.openModifications)
    const listed = () => problemsListed(s, 'openModifications')
    now += 14 * 60_000
    expect(await unansweredTooLong()).toEqual([0])
    expect(await listed()).toEqual([])
    now += 2 * 60_000
    expect(await unansweredTooLong()).toEqual([1])
    const [stored] = await s.store.listModifications((await s.store.listAttempts(String(order.id)))[0]!.id)
    expect(await listed()).toEqual([
      {
        orderId: String(order.id),
        kind: 'capture',
        requestId,
        amount: { currency: 'EUR', value: 2800 },
        since: stored!.updatedAt,
        lastSentAt: stored!.createdAt,
      },
    ])
    // Sent again under its key by the merchant's retry: answered, no longer open.
    expect(await s.backend.capture(order.id, { requestId })).toMatchObject({ state: 'received' })
    expect(await unansweredTooLong()).toEqual([0])
    expect(await listed()).toEqual([])
  })

  it('gauges the outbox backlog, the problems kept and the lag as the ledger holds them', async () => {
    let now = Date.parse('2026-03-01T10:00:00.000Z')
    let refuse = true
    const s = await shop({
      now: () => new Date(now),
      onOrderChange: () => {
        if (refuse) throw new Error('shop database down')
      },
    })
    await s.backend.poller.pollNow()
    now += 42_000
    await s.post('/api/payments', await s.cardSubmission(s.createOrder()))
    const at = new Date(now).toISOString()
    // The sandbox's feed holds other tests' payments, unknown to this ledger: problems already.
    const before = (await recorder.collect()).get(METRICS.pollProblems)?.points[0]?.value as number
    await s.store.applyChangesAndCursor({
      applied: [],
      skipped: [],
      problems: [{ sequence: 9_999_999, change: { sequence: 9_999_999 }, reason: 'UNKNOWN_ORDER', nextTryAt: at }],
      resolved: [],
      at,
    })
    const collected = await recorder.collect()
    expect(collected.get(METRICS.outboxBacklog)?.points[0]?.value).toBeGreaterThan(0)
    expect(collected.get(METRICS.pollProblems)?.points.map((p) => p.value)).toEqual([before + 1])
    expect(collected.get(METRICS.pollerLag)?.points.map((p) => p.value)).toEqual([42])
    // Delivered once the shop takes them (after the backoff): the backlog is gone.
    refuse = false
    now += 3_600_000
    await s.backend.deliverChanges()
    expect((await recorder.collect()).get(METRICS.outboxBacklog)?.points.map((p) => p.value)).toEqual([0])
  })

  it('reports to providers given as options, and a refusal as its code on the span', async () => {
    const own = telemetryRecorder()
    const s = await shop({ tracerProvider: own.tracerProvider, meterProvider: own.meterProvider })
    expect(
      (
        await s.post('/api/payments', {
          orderId: 'no-such-order',
          reference: 'r',
          amount: { currency: 'EUR', value: 1 },
          paymentMethod: { type: 'ideal' },
        })
      ).status,
    ).toBe(404)
    const [span] = own.spans.getFinishedSpans()
    expect(span?.attributes).toMatchObject({ 'http.response.status_code': 404, 'error.type': 'ORDER_NOT_FOUND' })
    const durations = (await own.collect()).get(METRICS.requestDuration)?.points ?? []
    expect(valueWith(durations, { 'http.route': '/api/payments', 'error.type': 'ORDER_NOT_FOUND' })).toMatchObject({
      count: 1,
      buckets: { boundaries: expect.arrayContaining([0.005, 10]) },
    })
  })

  it("names its tracer and meter with package.json's version", () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string }
    expect(PACKAGE).toEqual({ name: manifest.name, version: manifest.version })
  })
})

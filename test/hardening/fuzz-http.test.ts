/**
 * Fuzzing every sandbox and shop-side HTTP endpoint over real loopback HTTP: methods,
 * raw paths, content types, headers (signed and forged), bodies (JSON with a card number inside,
 * invalid UTF-8, oversized, deeply nested). Properties: never a 5xx or a dropped connection, every
 * JSON refusal in its documented envelope, and no answer or log line holding card digits.
 */
import { request } from 'node:http'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createServiceClient, SHOP_SIDE_PATHS, signRequest, type ServiceCredentials } from '@card-jwe/service-client'
import { startSandbox, type RunningSandbox } from '@card-jwe/sandbox'
import { startShop, type RunningShop } from '@card-jwe/demo'
import { TEST_CARDS } from '@card-jwe/testkit/test-cards'
import { count, jsonWith, report, settings } from './support/fuzz.js'
import { leaksCardDigits } from '../../packages/card-jwe/test/support/cards.js'
import { startTestShop, type TestShop } from '../../apps/sandbox/test/support/shop-server.js'

const CARD = TEST_CARDS.find((c) => c.brand === 'mastercard')!
const logs: string[] = []
let sandbox: RunningSandbox
let testShop: TestShop
let shop: RunningShop
let credentials: ServiceCredentials
let storeId: string

interface Answer {
  readonly status: number
  readonly contentType: string
  readonly text: string
}

/** One raw HTTP request: the path is sent exactly as given (no URL normalisation). */
function send(base: string, method: string, path: string, headers: Record<string, string>, body: Uint8Array | undefined): Promise<Answer> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { hostname, port, method, path, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } },
      (incoming) => {
        const chunks: Buffer[] = []
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            contentType: String(incoming.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        )
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

const deeplyNested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
const encoder = new TextEncoder()

/** Bodies a hostile client sends: JSON with the card inside, broken encodings, huge and deep ones. */
const body = fc.oneof(
  { weight: 6, arbitrary: jsonWith(CARD.number).map((v) => encoder.encode(JSON.stringify(v) ?? 'null')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      encoder.encode(deeplyNested(20_000)),
      encoder.encode(`{"a":${deeplyNested(30_000)}}`),
      encoder.encode(`"${'x'.repeat(70_000)}"`),
      Uint8Array.of(0xff, 0xfe, 0x7b, 0x7d),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constant(
      encoder.encode(
        JSON.stringify({
          number: CARD.number,
          expiryMonth: CARD.expiryMonth,
          expiryYear: CARD.expiryYear,
          cvc: CARD.securityCode,
          paymentMethod: { type: 'scheme', number: CARD.number },
        }),
      ),
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
)
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  '',
)
const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'FOO')
/** Path segments: real ids, random ones, traversal, encodings, overlong. */
const segment = () =>
  fc.oneof(
    fc.constant(storeId),
    fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/),
    fc.constantFrom('..', '%2e%2e', '..%2f..%2fetc%2fpasswd', '%00', 'a'.repeat(300), CARD.number, '%E2%80%AE', '{store_id}'),
  )

function checkAnswer(answer: Answer, where: string): void {
  expect(answer.status, where).toBeGreaterThanOrEqual(100)
  expect(answer.status, where).toBeLessThan(500)
  expect(leaksCardDigits(answer.text, CARD.number), where).toBe(false)
  if (answer.status >= 400 && answer.contentType.startsWith('application/json') && answer.text) {
    const envelope = JSON.parse(answer.text) as Record<string, unknown>
    expect(typeof (envelope.errorCode ?? envelope.error), where).toBe('string')
    expect(typeof envelope.message === 'string' || envelope.error === 'unauthorized', where).toBe(true)
  }
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'card-jwe-fuzz-'))
  sandbox = await startSandbox({ dataDir: join(dir, 'sandbox'), log: (line) => logs.push(`[sandbox] ${line}`) })
  testShop = await startTestShop()
  const registration = await createServiceClient({ baseUrl: sandbox.baseUrl }).register({
    shopUrl: testShop.url,
    key: testShop.key,
    secret: testShop.secret,
    readyMadeStore: true,
  })
  credentials = { shopId: registration.shopId, serviceSecret: testShop.settings.get('service_secret')! }
  storeId = registration.storeId!
  shop = await startShop({
    dataDir: join(dir, 'shop'),
    serviceBaseUrl: sandbox.baseUrl,
    certificatePem: sandbox.certificatePem,
    frontDir: fileURLToPath(new URL('../../apps/demo/dist/front', import.meta.url)),
    pollIntervalMs: 3_600_000,
    readyMadeStore: true,
    // Random Basic headers would otherwise wait up to 8 s each; the throttle has its own test.
    failureThrottle: { failed: () => 0, succeeded: () => {} },
    log: (line) => logs.push(`[shop] ${line}`),
  })
}, 60_000)

afterAll(async () => {
  report('http')
  await shop?.close()
  await testShop?.close()
  await sandbox?.close()
})

const SANDBOX_PATHS = [
  '/shopplatform/processor/shop-registrations',
  '/email-verification-messages',
  '/shopplatform/processor/backoffice-user',
  '/shopplatform/processor/backoffice-user-contractors',
  '/shopplatform/processor/contractor',
  '/shopplatform/processor/industry-codes',
  '/shopplatform/processor/countries',
  '/shopplatform/processor/stores',
  '/shopplatform/processor/stores/{id}',
  '/shopplatform/processor/stores/{id}/payment-methods',
  '/shopplatform/processor/onboarding-status',
  '/shopplatform/processor/onboarding-links',
  '/shopplatform/processor/stores/{id}/payments',
  '/shopplatform/processor/stores/{id}/payment-details',
  '/shopplatform/processor/payments/{id}/captures',
  '/shopplatform/processor/payments/{id}/refunds',
  '/shopplatform/processor/payments/{id}/cancels',
  '/shopplatform/processor/payments/{id}/subject-erasure-requests',
  '/shopplatform/processor/updated-payments?after={id}&limit={id}',
  '/shopplatform/processor/stores/{id}/checkout-payment-methods?country={id}&shopper={id}',
  '/shopplatform/processor/stores/{id}/client-key',
  '/shopplatform/processor/web-component-client-key',
  '/shopplatform/processor/stores/{id}/unsubscribe-requests',
  '/threeds/method',
  '/threeds/method-notification',
  '/threeds/acs',
  '/threeds/acs/answer',
  '/threeds/challenge-notification',
  '/redirect/{id}',
  '/redirect/{id}/approve',
  '/onboarding/{id}',
  '/sandbox/inbox?email={id}',
  '/sandbox/payments?reference={id}&limit={id}',
  '/sandbox/payments?{id}=1',
  '/static/sandbox-page.js',
  '/{id}/../../etc/passwd',
]

const SHOP_PATHS = [
  '/',
  '/admin.html',
  '/{id}/../../package.json',
  '/%2e%2e/%2e%2e/package.json',
  '/assets/{id}.js',
  '/api/config',
  '/api/catalogue',
  '/api/orders',
  '/api/orders/{id}',
  '/api/payments',
  '/api/payment-details',
  '/api/csp-report',
  '/api/admin/orders',
  '/api/admin/poll',
  '/api/admin/orders/{id}',
  '/api/admin/orders/{id}/capture',
  '/api/admin/orders/{id}/refund',
  '/api/admin/orders/{id}/cancel',
  '/api/admin/problems',
  '/api/admin/problems/{id}/retry',
  '/api/admin/problems/{id}/dismiss',
  '/api/admin/deliveries/{id}/retry',
  '/api/admin/deliveries/{id}/dismiss',
  '/api/admin/setup',
  '/api/admin/setup/{id}',
  '/api/admin/setup/email',
  '/api/admin/setup/code',
  '/api/admin/setup/store',
  '/api/admin/setup/contractor',
  '/api/admin/setup/store-choice',
  '/api/admin/setup/payment-methods',
  ...Object.values(SHOP_SIDE_PATHS),
]

const filled = (template: string) =>
  fc
    .array(segment(), { minLength: 4, maxLength: 4 })
    .map((parts) => template.replace(/\{id\}/g, () => encodeURI(parts.shift() ?? 'x').replace(/%25/g, '%')))

describe('HTTP endpoints under hostile requests', () => {
  it('the sandbox never fails, answers its envelope, and never echoes card data', async () => {
    const requestArb = fc.record({
      method,
      path: fc.constantFrom(...SANDBOX_PATHS).chain(filled),
      contentType,
      body,
      signing: fc.constantFrom('valid', 'none', 'forged', 'stale'),
      key: fc.option(fc.constantFrom('abc', 'order-1-attempt-0', 'x'.repeat(100))),
    })
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        count('sandbox HTTP')
        const headers: Record<string, string> = r.contentType ? { 'content-type': r.contentType } : {}
        if (r.key) headers['idempotency-key'] = r.key
        if (r.signing !== 'none') {
          const signed = await signRequest(
            r.signing === 'forged' ? { ...credentials, serviceSecret: 'forged-secret' } : credentials,
            { method: r.method, pathWithQuery: r.path, body: r.body ?? new Uint8Array() },
            r.signing === 'stale' ? new Date(Date.now() - 3_600_000) : undefined,
          )
          Object.assign(headers, signed)
        }
        checkAnswer(await send(sandbox.baseUrl, r.method, r.path, headers, r.body), `${r.method} ${r.path.slice(0, 80)}`)
      }),
      settings(3_000),
    )
  })

  it('the demo shop never fails, refuses in its envelope, and never echoes card data', async () => {
    const basic = fc.oneof(
      fc.constant(undefined),
      fc.string({ maxLength: 40 }).map((s) => `Basic ${Buffer.from(s).toString('base64')}`),
      fc.string({ maxLength: 60 }),
    )
    const requestArb = fc.record({
      method,
      path: fc.constantFrom(...SHOP_PATHS).chain(filled),
      contentType,
      body,
      basic,
      key: fc.option(fc.string({ maxLength: 70 })),
    })
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        count('shop HTTP')
        const headers: Record<string, string> = r.contentType ? { 'content-type': r.contentType } : {}
        if (r.basic) headers.authorization = r.basic.replace(/[^\x20-\x7e]/g, '')
        if (r.key) headers['idempotency-key'] = r.key.replace(/[^\x20-\x7e]/g, '')
        checkAnswer(await send(shop.url, r.method, r.path, headers, r.body), `${r.method} ${r.path.slice(0, 80)}`)
      }),
      settings(3_000),
    )
  })

  it('wrote no card digits into any log line', () => {
    expect(logs.length).toBeGreaterThan(1000)
    expect(logs.filter((line) => leaksCardDigits(line, CARD.number))).toEqual([])
  })
})

import { execFileSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createServiceClient, SIGNATURE_HEADERS, signRequest } from '@card-jwe/service-client'
import { serviceError } from './support/service-error.js'
import { canonicalMessage, signatureOf } from '@card-jwe/service-client/signing'
import { startSandbox, type RunningSandbox } from '@card-jwe/sandbox'
import { freshDataDir, registeredShop, type RegisteredShop } from './support/sandbox-fixture.js'
import { startTestShop } from './support/shop-server.js'

describe('registration (spec: "Shop registration")', () => {
  let sandbox: RunningSandbox
  beforeAll(async () => {
    sandbox = await startSandbox({ dataDir: freshDataDir(), log: () => {} })
  })
  afterAll(() => sandbox.close())

  it('reads the shop’s settings with Basic auth, pushes a strong service_secret and registers the shop', async () => {
    const shop = await startTestShop()
    const result = await createServiceClient({ baseUrl: sandbox.baseUrl }).register({
      shopUrl: shop.url,
      key: shop.key,
      secret: shop.secret,
    })
    expect(result).toEqual({ shopId: expect.stringMatching(/^shop_/), status: 'registered' })
    expect(shop.calls).toEqual(['GET /shop-json/shop/v3/settings/general 200', 'POST /shop-json/shop/v3/settings/general/batch 200'])
    const secret = shop.settings.get('service_secret')!
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/) // 256 random bits
    expect(JSON.stringify(result)).not.toContain(secret)
    await shop.close()
  })

  it('leaves a shop that answers 401 unregistered, with a clear error', async () => {
    const shop = await startTestShop()
    const error = await serviceError(
      createServiceClient({ baseUrl: sandbox.baseUrl }).register({ shopUrl: shop.url, key: shop.key, secret: 'wrong-secret-0000000000' }),
    )
    expect(error).toMatchObject({ status: 422, code: 'SHOP_REJECTED_CREDENTIALS' })
    expect(error.message).toMatch(/answered 401 to GET \/shop-json\/shop\/v3\/settings\/general/)
    expect(shop.settings.get('service_secret')).toBe('')
    await shop.close()
  })

  it('refuses a shop whose settings do not follow the contract, and bad registration bodies', async () => {
    const shop = await startTestShop({ settingsBody: '{"not":"an array"}' })
    const client = createServiceClient({ baseUrl: sandbox.baseUrl })
    expect((await serviceError(client.register({ shopUrl: shop.url, key: shop.key, secret: shop.secret }))).code).toBe(
      'SHOP_SETTINGS_INVALID',
    )
    expect((await serviceError(client.register({ shopUrl: 'ftp://shop', key: 'k'.repeat(16), secret: 's'.repeat(16) }))).code).toBe(
      'INVALID_REQUEST',
    )
    expect((await serviceError(client.register({ shopUrl: 'http://127.0.0.1:1', key: 'k'.repeat(16), secret: 's'.repeat(16) }))).code).toBe(
      'SHOP_UNREACHABLE',
    )
    await shop.close()
  })

  it('under one Idempotency-Key: a repeat gets the first shop (one push), one still running is 409, a failed one runs again', async () => {
    const shop = await startTestShop({ pushDelayMs: 1_000 })
    const client = createServiceClient({ baseUrl: sandbox.baseUrl })
    const body = { shopUrl: shop.url, key: shop.key, secret: shop.secret }
    const key = { idempotencyKey: 'registration-0001' }
    const running = client.register(body, key)
    // The first has read the shop's settings (its key claimed before), and waits for its push.
    await vi.waitFor(() => expect(shop.calls.some((c) => c.startsWith('GET'))).toBe(true), { timeout: 10_000 })
    expect(await serviceError(client.register(body, key))).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' })
    const first = await running
    const pushed = shop.settings.get('service_secret')
    expect(await client.register(body, key)).toEqual(first)
    expect(shop.calls.filter((c) => c.startsWith('POST'))).toHaveLength(1)
    expect(shop.settings.get('service_secret')).toBe(pushed)
    expect(await serviceError(client.register({ ...body, secret: 'another-secret-00000000' }, key))).toMatchObject({
      status: 422,
      code: 'IDEMPOTENCY_KEY_REUSED',
    })
    // Refused by the shop: nothing registered, so the same key runs again (and is refused again).
    const wrong = { ...body, secret: 'wrong-secret-0000000000' }
    const again = { idempotencyKey: 'registration-0002' }
    expect(await serviceError(client.register(wrong, again))).toMatchObject({ code: 'SHOP_REJECTED_CREDENTIALS' })
    const calls = shop.calls.length
    expect(await serviceError(client.register(wrong, again))).toMatchObject({ code: 'SHOP_REJECTED_CREDENTIALS' })
    expect(shop.calls.length).toBeGreaterThan(calls)
    await shop.close()
  })

  it('a registration whose push failed runs again under its key with the same service_secret: a late write cannot differ', async () => {
    const shop = await startTestShop({ failPushes: 1 })
    const client = createServiceClient({ baseUrl: sandbox.baseUrl })
    const body = { shopUrl: shop.url, key: shop.key, secret: shop.secret }
    const key = { idempotencyKey: 'registration-0003' }
    expect(await serviceError(client.register(body, key))).toMatchObject({ status: 502, code: 'SHOP_SETTINGS_INVALID' })
    const firstPush = shop.settings.get('service_secret')
    expect(firstPush).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(await client.register(body, key)).toMatchObject({ status: 'registered' })
    expect(shop.settings.get('service_secret')).toBe(firstPush)
    // Another key is another registration, with a secret of its own.
    await client.register(body, { idempotencyKey: 'registration-0004' })
    expect(shop.settings.get('service_secret')).not.toBe(firstPush)
    await shop.close()
  })
})

describe('request signing', () => {
  let fixture: RegisteredShop
  beforeAll(async () => {
    fixture = await registeredShop()
  })
  afterAll(() => fixture.close())

  const path = '/shopplatform/processor/updated-payments'

  async function raw(headers: Record<string, string>, init: RequestInit = {}, at = path) {
    const response = await fetch(fixture.sandbox.baseUrl + at, {
      ...init,
      headers: { ...headers, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    })
    return { status: response.status, body: (await response.json()) as { errorCode: string; errorType: string } }
  }

  it('accepts a signed request', async () => {
    await expect(fixture.client.updatedPayments()).resolves.toMatchObject({ payments: expect.any(Array) })
  })

  it('refuses unsigned, badly signed, stale, replayed, re-ordered and body-swapped requests with 401', async () => {
    const credentials = fixture.credentials
    const good = await signRequest(credentials, { method: 'GET', pathWithQuery: path, body: '' })
    expect((await raw(good)).status).toBe(200)
    expect(await raw(good)).toEqual({
      status: 401,
      body: expect.objectContaining({ errorCode: 'SIGNATURE_REPLAYED', errorType: 'security' }),
    })
    expect((await raw({})).body.errorCode).toBe('SIGNATURE_MISSING')

    const wrongSecret = await signRequest(
      { ...credentials, serviceSecret: 'not-the-secret' },
      { method: 'GET', pathWithQuery: path, body: '' },
    )
    expect((await raw(wrongSecret)).body.errorCode).toBe('SIGNATURE_INVALID')

    const stale = await signRequest(credentials, { method: 'GET', pathWithQuery: path, body: '' }, new Date(Date.now() - 6 * 60 * 1000))
    expect((await raw(stale)).body.errorCode).toBe('SIGNATURE_STALE')

    const otherPath = await signRequest(credentials, { method: 'GET', pathWithQuery: `${path}?after=0`, body: '' })
    expect((await raw(otherPath)).body.errorCode).toBe('SIGNATURE_INVALID')

    const capturePath = '/shopplatform/processor/payments/PSPREF0000000000/captures'
    const signedBody = JSON.stringify({ amount: { currency: 'EUR', value: 1 } })
    const headers = await signRequest(credentials, { method: 'POST', pathWithQuery: capturePath, body: signedBody })
    const swapped = await raw(
      headers,
      { method: 'POST', body: JSON.stringify({ amount: { currency: 'EUR', value: 999999 } }) },
      capturePath,
    )
    expect(swapped.body.errorCode).toBe('SIGNATURE_INVALID')

    // Re-ordered: the query's parameters in another order, or the method changed, are not what was signed.
    const signedQuery = await signRequest(credentials, { method: 'GET', pathWithQuery: `${path}?after=0&limit=1`, body: '' })
    expect((await raw(signedQuery, {}, `${path}?limit=1&after=0`)).body.errorCode).toBe('SIGNATURE_INVALID')
    const signedAsGet = await signRequest(credentials, { method: 'GET', pathWithQuery: capturePath, body: signedBody })
    expect((await raw(signedAsGet, { method: 'POST', body: signedBody }, capturePath)).body.errorCode).toBe('SIGNATURE_INVALID')

    const unknownShop = await signRequest({ ...credentials, shopId: 'shop_unknown' }, { method: 'GET', pathWithQuery: path, body: '' })
    expect((await raw(unknownShop)).body.errorCode).toBe('SIGNATURE_INVALID')
    expect((await raw({ ...good, [SIGNATURE_HEADERS.nonce]: 'short' })).body.errorCode).toBe('SIGNATURE_MALFORMED')
  })

  it('signs exactly what docs/service-signing.md says, as Python’s hmac computes it', async () => {
    const parts = {
      timestamp: 1763700000,
      nonce: 'n0nce-0123456789ab',
      method: 'post',
      pathWithQuery: '/shopplatform/processor/stores/store_1/payments?x=1',
      body: '{"amount":{"currency":"EUR","value":2800}}',
    }
    const python = execFileSync(
      process.env.INTEROP_PYTHON ?? '/usr/bin/python3',
      [
        '-c',
        `import hashlib, hmac, sys
ts, nonce, method, path, body, secret = sys.argv[1:]
message = "\\n".join(["v1", ts, nonce, method.upper(), path, hashlib.sha256(body.encode()).hexdigest()])
print("v1=" + hmac.new(secret.encode(), message.encode(), hashlib.sha256).hexdigest())`,
        String(parts.timestamp),
        parts.nonce,
        parts.method,
        parts.pathWithQuery,
        parts.body,
        'the-service-secret',
      ],
      { encoding: 'utf8' },
    ).trim()
    expect(await signatureOf('the-service-secret', parts)).toBe(python)
    expect((await canonicalMessage(parts)).split('\n')).toEqual([
      'v1',
      '1763700000',
      'n0nce-0123456789ab',
      'POST',
      parts.pathWithQuery,
      expect.stringMatching(/^[0-9a-f]{64}$/),
    ])
  })
})

// Registration and the shop-side routes over a real node:http server, with the real sandbox.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createServiceClient } from '@card-jwe/service-client'
import { createSecretBox, generateSecretKey, SHOP_SIDE_PATHS } from '../src/index.js'
import { toNodeListener } from '../src/node/index.js'
import { listen } from './support/listen.js'
import { startShop, startWorld, type TestShop, type World } from './support/shop.js'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())

const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`

describe('registration over a real node:http server (toNodeListener) with the real sandbox', () => {
  let shop: TestShop
  let http: Awaited<ReturnType<typeof listen>>
  const delays: number[] = []
  beforeAll(async () => {
    // The port first, so shopUrl is known before the backend exists.
    let listener: ReturnType<typeof toNodeListener> | undefined
    http = await listen((req, res) => listener!(req, res))
    shop = await startShop(world, { connect: false, shopUrl: http.url, sleep: async (ms) => void delays.push(ms) })
    listener = toNodeListener(shop.backend)
  })
  afterAll(async () => {
    await http.close()
    await shop.close()
  })

  it('registers in one call: the service reads the settings with Basic, pushes service_secret, which is stored sealed', async () => {
    const first = await shop.backend.register({ readyMadeStore: true })
    expect(first).toMatchObject({ shopId: expect.any(String), storeId: expect.any(String), alreadyRegistered: false })
    const sealed = (await shop.store.getSetting('service_secret'))!
    expect(sealed).toMatch(/^v1\./)
    const box = await createSecretBox(shop.secretKey)
    const secret = await box.open(sealed)
    expect(secret.length).toBeGreaterThan(16)
    expect(JSON.stringify(shop.store.database.prepare('SELECT * FROM settings').all())).not.toContain(secret)
    // The pushed secret signs: the service answers a signed call.
    const client = createServiceClient({ baseUrl: world.sandbox.baseUrl, credentials: { shopId: first.shopId, serviceSecret: secret } })
    await expect(client.updatedPayments({ after: 0 })).resolves.toMatchObject({ payments: [] })
  })

  it('says which key is wrong when a sealed secret is opened with another secretKey, and never the secret', async () => {
    const sealed = (await shop.store.getSetting('service_secret'))!
    const secret = await (await createSecretBox(shop.secretKey)).open(sealed)
    const opened = (await createSecretBox(generateSecretKey())).open(sealed)
    await expect(opened).rejects.toThrow(TypeError)
    await expect(opened).rejects.toThrow(/cannot be opened with this secretKey/)
    await expect(opened).rejects.not.toThrow(secret)
  })

  it('is safe to repeat: a registered shop sends nothing and answers what it has', async () => {
    const before = await shop.store.getSetting('shop_id')
    expect(await shop.backend.register({ readyMadeStore: true })).toMatchObject({ shopId: before, alreadyRegistered: true })
  })

  it('answers wrong Basic credentials 401 with WWW-Authenticate, the same body whichever half was wrong, slower each time', async () => {
    const box = await createSecretBox(shop.secretKey)
    const key = await box.open((await shop.store.getSetting('basic_key'))!)
    const secret = await box.open((await shop.store.getSetting('basic_secret'))!)
    const url = `${http.url}${SHOP_SIDE_PATHS.settings}`
    const wrongKey = await fetch(url, { headers: { authorization: basic(`${key}x`, secret) } })
    const wrongSecret = await fetch(url, { headers: { authorization: basic(key, `${secret}x`) } })
    const none = await fetch(url)
    for (const response of [wrongKey, wrongSecret, none]) {
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm=/)
    }
    const bodies = await Promise.all([wrongKey.text(), wrongSecret.text(), none.text()])
    expect(new Set(bodies).size).toBe(1)
    expect(delays.slice(-3)).toEqual([250, 500, 1000])
    const right = await fetch(url, { headers: { authorization: basic(key, secret) } })
    expect(right.status).toBe(200)
    expect(await right.json()).toEqual([{ id: 'service_secret', value: expect.any(String) }])
    // The scheme's case is free (RFC 7235 2.1); the credentials' is not.
    const lower = await fetch(url, { headers: { authorization: basic(key, secret).replace('Basic', 'basic') } })
    expect(lower.status).toBe(200)
  })

  it('checks guesses from one address one at a time, each after the wait the last failure set; other addresses are not held', async () => {
    const waits: Array<() => void> = []
    let checks = 0
    const guarded = await startShop(world, {
      sleep: () => new Promise<void>((resolve) => waits.push(resolve)),
      // Each Basic check reads the sealed secret once.
      wrapStore: (store) => ({
        ...store,
        getSetting: (id: string) => {
          if (id === 'basic_secret') checks++
          return store.getSetting(id)
        },
      }),
    })
    try {
      const box = await createSecretBox(guarded.secretKey)
      const [key, secret] = ['shop_0123456789abcdef', 'f'.repeat(64)]
      await guarded.store.putSetting('basic_key', await box.seal(key))
      await guarded.store.putSetting('basic_secret', await box.seal(secret))
      const get = (authorization: string, ip = '203.0.113.7') =>
        guarded.backend.fetch(new Request(`http://shop.test${SHOP_SIDE_PATHS.settings}`, { headers: { authorization } }), { ip })
      // Until the checks so far have run and the next is held in its wait (a busy host may take a while).
      const heldAfter = (n: number) =>
        vi.waitFor(() => expect({ checks, waiting: waits.length }).toEqual({ checks: n, waiting: 1 }), { timeout: 10_000 })

      // Ten guesses and the right pair, sent together from one address.
      const guesses = Array.from({ length: 10 }, (_, i) => get(basic(key, `guess-${i}`)))
      const right = get(basic(key, secret))
      await heldAfter(1)
      // Another address is checked at once.
      expect((await get(basic(key, secret), '198.51.100.9')).status).toBe(200)
      // Each wait that ends lets exactly one more check in.
      for (let n = 2; n <= 10; n++) {
        waits.shift()!()
        await heldAfter(n + 1) // and the other address's one
      }
      waits.shift()!()
      expect((await right).status).toBe(200)
      expect((await Promise.all(guesses)).map((r) => r.status)).toEqual(Array(10).fill(401))
      // One check a request, none twice: 10 guesses, the right pair, the other address.
      expect(checks).toBe(12)
    } finally {
      await guarded.close()
    }
  })

  it('batch: only service_secret is writable; another id is refused by name', async () => {
    const box = await createSecretBox(shop.secretKey)
    const auth = basic(
      await box.open((await shop.store.getSetting('basic_key'))!),
      await box.open((await shop.store.getSetting('basic_secret'))!),
    )
    const post = (body: unknown, type = 'application/json') =>
      fetch(`${http.url}${SHOP_SIDE_PATHS.settingsBatch}`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': type },
        body: JSON.stringify(body),
      })
    const refused = await post({
      update: [
        { id: 'service_secret', value: 'x'.repeat(40) },
        { id: 'basic_secret', value: 'mine' },
      ],
    })
    expect(refused.status).toBe(400)
    const answer = (await refused.json()) as { error: string; message: string }
    expect(answer.error).toBe('UNKNOWN_SETTING')
    expect(answer.message).toContain('update[1].id "basic_secret"')
    expect(answer.message).not.toContain('mine')
    expect((await post({ update: [{ id: 'service_secret', value: 'x' }] }, 'text/plain')).status).toBe(415)
  })

  it('the onboarding return redirects (302) to the admin without authentication', async () => {
    const response = await fetch(`${http.url}${SHOP_SIDE_PATHS.onboardingReturn}`, { redirect: 'manual' })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/admin.html?onboarding=returned')
  })

  it('the checkout API takes JSON only (415) and caps the body (413), over node:http', async () => {
    const form = await fetch(`${http.url}/api/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'orderId=1',
    })
    expect(form.status).toBe(415)
    const huge = await fetch(`${http.url}/api/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(70_000) }),
    })
    expect(huge.status).toBe(413)
    expect((await fetch(`${http.url}/elsewhere`)).status).toBe(404)
  })
})

describe('registration the service cannot complete', () => {
  it("says why in the service's words (the shop's settings endpoint it could not reach), not only its status", async () => {
    // startShop's shopUrl is http://127.0.0.1:9: nothing answers there.
    const s = await startShop(world, { connect: false })
    try {
      const refused = await s.backend.register().then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(refused).toMatchObject({ code: 'SHOP_UNREACHABLE', status: 502 })
      expect((refused as Error).message).toMatch(/could not reach the shop at \/shop-json\/shop\/v3\/settings\/general/)
      expect(await s.store.getSetting('shop_id')).toBeUndefined()
    } finally {
      await s.close()
    }
  })
})

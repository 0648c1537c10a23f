import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Hono } from 'hono'
import { createServiceClient } from '@card-jwe/service-client'
import { connectServiceClient, createSecretBox, generateSecretKey, SHOP_SIDE_PATHS } from '../src/index.js'
import { mountShopBackend } from '../src/hono/index.js'
import { toNodeListener } from '../src/node/index.js'
import { listen } from './support/listen.js'
import { startShop, startWorld, type TestShop, type World } from './support/shop.js'
import { gate } from './support/gate.js'

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

describe('registration from two instances at once (one ledger, two back ends behind one address)', () => {
  it('makes one shop at the service, and both instances answer with it', async () => {
    // A load balancer in front of two back ends on one ledger file: requests alternate between them.
    const listeners: Array<ReturnType<typeof toNodeListener>> = []
    let turn = 0
    const http = await listen((req, res) => listeners[turn++ % listeners.length]!(req, res))
    const a = await startShop(world, { connect: false, shopUrl: http.url })
    const b = await startShop(world, { connect: false, shopUrl: http.url, storePath: a.storePath, secretKey: a.secretKey })
    try {
      listeners.push(toNodeListener(a.backend), toNodeListener(b.backend))
      const [first, second] = await Promise.all([
        a.backend.register({ readyMadeStore: true }),
        b.backend.register({ readyMadeStore: true }),
      ])
      expect(second!.shopId).toBe(first!.shopId)
      expect([first!.alreadyRegistered, second!.alreadyRegistered].sort()).toEqual([false, true])
      const sandbox = new Database(world.sandbox.sandbox.databasePath, { readonly: true, fileMustExist: true })
      try {
        expect(sandbox.prepare('SELECT COUNT(*) AS n FROM shops WHERE base_url = ?').get(http.url)).toEqual({ n: 1 })
      } finally {
        sandbox.close()
      }
      // Both sign with the one pushed secret: each pays through its own instance.
      for (const shop of [a, b]) {
        const order = shop.createOrder()
        expect(await shop.post('/api/payments', await shop.cardSubmission(order))).toMatchObject({
          status: 200,
          body: { resultCode: 'Authorised' },
        })
      }
    } finally {
      await http.close()
      await b.close()
      await a.close()
    }
  })
})

describe('registration after an unknown outcome', () => {
  /** The shops the sandbox holds for this address, and whose secret the ledger stored. */
  async function shopsAt(url: string, shop: TestShop) {
    const sandbox = new Database(world.sandbox.sandbox.databasePath, { readonly: true, fileMustExist: true })
    try {
      const rows = sandbox.prepare('SELECT shop_id, service_secret FROM shops WHERE base_url = ?').all(url) as Array<{
        shop_id: string
        service_secret: string
      }>
      const stored = await (await createSecretBox(shop.secretKey)).open((await shop.store.getSetting('service_secret'))!)
      return { shopIds: rows.map((r) => r.shop_id), secretOf: rows.find((r) => r.service_secret === stored)?.shop_id }
    } finally {
      sandbox.close()
    }
  }

  it('a registration still running when the call gave up is asked again under its key: one shop, and its secret', async () => {
    let listener: ReturnType<typeof toNodeListener> | undefined
    let pushes = 0
    // The service's push reaches the shop 2.5 s late: the test client's 1 s attempt gives up first.
    const http = await listen((req, res) => {
      if (req.url?.endsWith('/settings/general/batch') && ++pushes === 1) setTimeout(() => listener!(req, res), 2_500)
      else listener!(req, res)
    })
    const shop = await startShop(world, { connect: false, shopUrl: http.url })
    listener = toNodeListener(shop.backend)
    const asked = world.proxy.started('POST', '/shop-registrations')
    try {
      const registered = await shop.backend.register({ readyMadeStore: true })
      expect(registered).toMatchObject({ alreadyRegistered: false, storeId: expect.any(String) })
      // Asked more than once (409 IDEMPOTENCY_KEY_IN_USE while the first ran), under the key stored first.
      expect(world.proxy.started('POST', '/shop-registrations') - asked).toBeGreaterThan(1)
      expect(world.proxy.keysForwarded('POST', '/shop-registrations')).toContain(await shop.store.getSetting('registration_key'))
      expect(pushes).toBe(1)
      expect(await shopsAt(http.url, shop)).toEqual({ shopIds: [registered.shopId], secretOf: registered.shopId })
      const order = shop.createOrder()
      expect(await shop.post('/api/payments', await shop.cardSubmission(order))).toMatchObject({ status: 200 })
    } finally {
      await http.close()
      await shop.close()
    }
  }, 30_000)

  it("a registration whose answer was lost is answered again from the service's record: one shop, one push", async () => {
    let listener: ReturnType<typeof toNodeListener> | undefined
    let pushes = 0
    const http = await listen((req, res) => {
      if (req.url?.endsWith('/settings/general/batch')) pushes++
      listener!(req, res)
    })
    const shop = await startShop(world, { connect: false, shopUrl: http.url })
    listener = toNodeListener(shop.backend)
    let asked = 0
    const rule = world.proxy.rule
    world.proxy.rule = (method, path) => {
      if (method !== 'POST' || !path.endsWith('/shop-registrations')) return rule(method, path)
      return { action: asked++ === 0 ? 'lose' : 'forward' }
    }
    try {
      const registered = await shop.backend.register()
      expect(asked).toBeGreaterThan(1)
      expect(pushes).toBe(1)
      expect(await shopsAt(http.url, shop)).toEqual({ shopIds: [registered.shopId], secretOf: registered.shopId })
    } finally {
      world.proxy.rule = rule
      await http.close()
      await shop.close()
    }
  }, 30_000)

  it('a registration whose 2xx answer cannot be read fails at once, INVALID_RESPONSE: asking again gets the same answer', async () => {
    let listener: ReturnType<typeof toNodeListener> | undefined
    const http = await listen((req, res) => listener!(req, res))
    const shop = await startShop(world, { connect: false, shopUrl: http.url })
    listener = toNodeListener(shop.backend)
    const asAnswered = world.proxy.answer
    const isRegistration = (method: string, path: string) => method === 'POST' && path.endsWith('/shop-registrations')
    world.proxy.answer = (method, path, body) => (isRegistration(method, path) ? Buffer.from('<html>a login page</html>') : body)
    const asked = world.proxy.started('POST', '/shop-registrations')
    try {
      await expect(shop.backend.register()).rejects.toMatchObject({ code: 'INVALID_RESPONSE' })
      expect(world.proxy.started('POST', '/shop-registrations') - asked).toBe(1)
    } finally {
      world.proxy.answer = asAnswered
      await http.close()
      await shop.close()
    }
  }, 60_000)

  it('a push the shop stored only after the service gave up (10 s): one shop, and the secret stored last is still its own', async () => {
    let listener: ReturnType<typeof toNodeListener> | undefined
    const http = await listen((req, res) => listener!(req, res))
    let slowWrites = 1
    const lateWrite = gate()
    const shop = await startShop(world, {
      connect: false,
      shopUrl: http.url,
      // The shop's database is slow once (a lock, a pause): the first push's write takes 11 s.
      wrapStore: (store) => ({
        ...store,
        async putSettings(settings) {
          if (!('service_secret' in settings) || slowWrites-- <= 0) return store.putSettings(settings)
          await new Promise((resolve) => setTimeout(resolve, 11_000))
          await store.putSettings(settings)
          lateWrite.open()
        },
      }),
    })
    listener = toNodeListener(shop.backend)
    try {
      // The 1 s client gives up; the repeats meet 409 while the service waits for the push, then run it
      // again under the key, pushing the key's one secret: the late write stores that same secret.
      const registered = await shop.backend.register()
      await lateWrite.opened
      await new Promise((resolve) => setTimeout(resolve, 1_200)) // past the connection cache
      expect(await shopsAt(http.url, shop)).toEqual({ shopIds: [registered.shopId], secretOf: registered.shopId })
    } finally {
      await http.close()
      await shop.close()
    }
  }, 60_000)

  it('a registration made but never recorded (killed before shop_id) is made anew after a restart at another address', async () => {
    let listenerA: ReturnType<typeof toNodeListener> | undefined
    const httpA = await listen((req, res) => listenerA!(req, res))
    const { registerShop } = connectServiceClient({ baseUrl: world.proxy.baseUrl, fetch: world.proxy.fetch })
    const first = await startShop(world, {
      connect: false,
      shopUrl: httpA.url,
      // The process dies right after the service answered, before shop_id is stored.
      registerShop: async (shop, call) => {
        await registerShop(shop, call)
        throw new Error('process killed')
      },
    })
    listenerA = toNodeListener(first.backend)
    await expect(first.backend.register()).rejects.toThrow('process killed')
    await httpA.close()
    let listenerB: ReturnType<typeof toNodeListener> | undefined
    const httpB = await listen((req, res) => listenerB!(req, res))
    const second = await startShop(world, { connect: false, shopUrl: httpB.url, storePath: first.storePath, secretKey: first.secretKey })
    listenerB = toNodeListener(second.backend)
    try {
      // Its key named the registration at the old address (422 IDEMPOTENCY_KEY_REUSED): a new key, a new registration.
      const again = await second.backend.register()
      expect(again).toMatchObject({ alreadyRegistered: false })
      expect(await shopsAt(httpB.url, second)).toEqual({ shopIds: [again.shopId], secretOf: again.shopId })
    } finally {
      await httpB.close()
      await second.close()
      await first.close()
    }
  }, 60_000)
})

describe('mounted in a real Hono app', () => {
  it("serves the checkout API beside the shop's own routes, and a card payment goes through", async () => {
    const shop = await startShop(world)
    try {
      const app = new Hono()
      app.get('/', (c) => c.text('the shop'))
      mountShopBackend(app, shop.backend, { ip: () => '203.0.113.7' })
      expect(await (await app.request('/')).text()).toBe('the shop')
      const config = await app.request('/api/config')
      expect(await config.json()).toMatchObject({
        certificatePem: world.sandbox.certificatePem,
        checkoutReady: true,
        serviceReachable: true,
        paymentMethods: expect.arrayContaining(['scheme', 'ideal']),
      })
      const order = shop.createOrder()
      const paid = await app.request('/api/payments', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(await shop.cardSubmission(order)),
      })
      expect(paid.status).toBe(200)
      expect(await paid.json()).toEqual({ resultCode: 'Authorised' })
      const mismatch = await app.request('/api/payments', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...(await shop.cardSubmission(order)), amount: { currency: 'EUR', value: 1 } }),
      })
      expect(mismatch.status).toBe(422)
      const refused = await mismatch.json()
      expect(refused.details).toEqual([{ kind: 'mismatch', field: 'amount.value', rule: "must equal the order's amount.value" }])
      // The message alone names the field and rule too: a page that shows only it still tells which.
      expect(refused.message).toBe("the submission does not match the order: amount.value (must equal the order's amount.value)")
      // A card number typed into a field the page sends is named by its field, never repeated.
      const card = '4111111145551142'
      const tampered = await app.request('/api/payments', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...(await shop.cardSubmission(order)), reference: card }),
      })
      const text = await tampered.text()
      expect(JSON.parse(text)).toMatchObject({ error: 'ORDER_MISMATCH', details: [{ field: 'reference' }] })
      expect(text).not.toContain(card)
    } finally {
      await shop.close()
    }
  })

  const PAGE_MISTAKES = [
    {
      mistake: "a card's JWE under type card, not scheme: 400 naming paymentMethod.type, nothing sent, no attempt stored",
      paymentMethod: (jwe: string) => ({ type: 'card', jwe }),
      answer: { status: 400, error: 'INVALID_BODY', prefix: 'body: ', path: 'paymentMethod.type' },
      rule: "scheme: a card's jwe goes with type scheme",
      sent: 0,
      attempts: ['authorised'],
    },
    {
      mistake: "a whole card's JWE in encryptedCardNumber: 400 naming that field and where the JWE goes, nothing sent",
      paymentMethod: (jwe: string) => ({ type: 'scheme', encryptedCardNumber: jwe }),
      answer: { status: 400, error: 'INVALID_BODY', prefix: 'body: ', path: 'paymentMethod.encryptedCardNumber' },
      rule: "a card's one JWE goes in jwe; encryptedCardNumber comes with encryptedExpiryMonth and encryptedExpiryYear",
      sent: 0,
      attempts: ['authorised'],
    },
    {
      // Refused by the service, not its failure: the service's 502 named no field.
      mistake: 'a method type the service does not take: 422 naming paymentMethod.type, the attempt refused',
      paymentMethod: () => ({ type: 'paypal' }),
      answer: { status: 422, error: 'PAYMENT_METHOD_UNSUPPORTED', prefix: '', path: 'paymentMethod.type' },
      rule: "a method this shop takes: one of /api/config's paymentMethods",
      sent: 1,
      attempts: ['error', 'authorised'],
    },
  ]

  it.each(PAGE_MISTAKES)(
    '$mistake; the card as the page should send it then pays once',
    async ({ paymentMethod, answer, rule, ...rest }) => {
      const shop = await startShop(world)
      try {
        const order = shop.createOrder()
        const submission = (await shop.cardSubmission(order)) as { paymentMethod: { jwe: string } }
        const before = world.proxy.counted('POST', '/payments')
        const refused = await shop.post('/api/payments', { ...submission, paymentMethod: paymentMethod(submission.paymentMethod.jwe) })
        expect(refused).toEqual({
          status: answer.status,
          body: { error: answer.error, message: `${answer.prefix}${answer.path} (${rule})`, details: [{ path: answer.path, rule }] },
        })
        expect(world.proxy.counted('POST', '/payments') - before).toBe(rest.sent)
        expect(await shop.post('/api/payments', await shop.cardSubmission(order))).toEqual({
          status: 200,
          body: { resultCode: 'Authorised' },
        })
        expect((await shop.store.listAttempts(String(order.id))).map((a) => a.state)).toEqual(rest.attempts)
      } finally {
        await shop.close()
      }
    },
  )
})

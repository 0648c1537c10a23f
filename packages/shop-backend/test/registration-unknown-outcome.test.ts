// Registration whose call gave up, whose answer was lost, or whose shop was killed before recording it.
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectServiceClient, createSecretBox } from '../src/index.js'
import { toNodeListener } from '../src/node/index.js'
import { listen } from './support/listen.js'
import { startShop, startWorld, type TestShop, type World } from './support/shop.js'
import { gate } from './support/gate.js'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())

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

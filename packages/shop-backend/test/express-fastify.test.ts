/**
 * The Express 5 and Fastify 5 adapters with the real frameworks over loopback HTTP against the real
 * sandbox: registration through the shop-side endpoints (the service reads the settings with Basic
 * and pushes service_secret to the batch endpoint), a card payment, 415 and 413, and the app's own
 * routes beside them. Express with no body parser, with express.json() and with express.raw()
 * mounted first.
 */
import type { Server } from 'node:http'
import express from 'express'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSecretBox, SHOP_SIDE_PATHS, type ShopBackend } from '../src/index.js'
import { shopBackendHandler } from '../src/express/index.js'
import { shopBackendPlugin } from '../src/fastify/index.js'
import { freePort } from './support/listen.js'
import { startShop, startWorld, type TestShop, type World } from './support/shop.js'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())

interface App {
  close(): Promise<void>
}

type Variant = {
  readonly name: string
  readonly start: (backend: ShopBackend, port: number) => Promise<App>
}

function expressApp(before?: 'json' | 'raw' | 'text') {
  return async (backend: ShopBackend, port: number): Promise<App> => {
    const app = express()
    if (before === 'json') app.use(express.json())
    if (before === 'raw') app.use(express.raw({ type: '*/*' }))
    if (before === 'text') app.use(express.text({ type: '*/*' }))
    app.use(shopBackendHandler(backend))
    app.get('/', (_req, res) => {
      res.send('the shop')
    })
    app.post('/own', (req, res) => {
      res.json({ own: Buffer.isBuffer(req.body) ? 'bytes' : typeof req.body })
    })
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(port, '127.0.0.1', () => resolve(s))
    })
    return {
      close: async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()))
        server.closeAllConnections()
        await closed
      },
    }
  }
}

async function fastifyApp(backend: ShopBackend, port: number): Promise<App> {
  const app: FastifyInstance = Fastify()
  await app.register(shopBackendPlugin, { backend })
  app.get('/', async () => 'the shop')
  app.post('/own', async (request) => ({ own: Buffer.isBuffer(request.body) ? 'bytes' : typeof request.body }))
  await app.listen({ port, host: '127.0.0.1' })
  return { close: () => app.close() }
}

const variants: Variant[] = [
  { name: 'Express 5, no body parser', start: expressApp() },
  { name: 'Express 5 after express.json()', start: expressApp('json') },
  { name: 'Express 5 after express.raw()', start: expressApp('raw') },
  { name: 'Express 5 after express.text()', start: expressApp('text') },
  { name: 'Fastify 5', start: fastifyApp },
]

const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`

describe.each(variants)('$name', ({ name, start }) => {
  let shop: TestShop
  let app: App
  let url: string
  beforeAll(async () => {
    const port = await freePort()
    url = `http://127.0.0.1:${port}`
    shop = await startShop(world, { connect: false, shopUrl: url, sleep: async () => {} })
    app = await start(shop.backend, port)
  })
  afterAll(async () => {
    await app?.close()
    await shop?.close()
  })

  it('registers through the shop-side endpoints: the service reads the settings with Basic and pushes service_secret', async () => {
    const registration = await shop.backend.register({ readyMadeStore: true })
    expect(registration).toMatchObject({ shopId: expect.any(String), storeId: expect.any(String), alreadyRegistered: false })
    const box = await createSecretBox(shop.secretKey)
    const secret = await box.open((await shop.store.getSetting('service_secret'))!)
    expect(secret.length).toBeGreaterThan(16)
    const key = await box.open((await shop.store.getSetting('basic_key'))!)
    const basicSecret = await box.open((await shop.store.getSetting('basic_secret'))!)
    const read = await fetch(`${url}${SHOP_SIDE_PATHS.settings}`, { headers: { authorization: basic(key, basicSecret) } })
    expect(read.status).toBe(200)
    expect(await read.json()).toEqual([{ id: 'service_secret', value: secret }])
    const wrong = await fetch(`${url}${SHOP_SIDE_PATHS.settings}`, { headers: { authorization: basic(key, `${basicSecret}x`) } })
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic realm=/)
    const refused = await fetch(`${url}${SHOP_SIDE_PATHS.settingsBatch}`, {
      method: 'POST',
      headers: { authorization: basic(key, basicSecret), 'content-type': 'application/json' },
      body: JSON.stringify({ update: [{ id: 'basic_secret', value: 'mine' }] }),
    })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ error: 'UNKNOWN_SETTING' })
  })

  it(`a card payment goes through (${name})`, async () => {
    const config = await fetch(`${url}/api/config`)
    expect(await config.json()).toMatchObject({
      checkoutReady: true,
      serviceReachable: true,
      paymentMethods: expect.arrayContaining(['scheme']),
    })
    const order = shop.createOrder()
    const body = JSON.stringify(await shop.cardSubmission(order))
    const paid = await fetch(`${url}/api/payments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(paid.status).toBe(200)
    expect(await paid.json()).toEqual({ resultCode: 'Authorised' })
    // The same submission again (a double click): the stored answer, no second payment.
    const again = await fetch(`${url}/api/payments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(await again.json()).toEqual({ resultCode: 'Authorised' })
    expect(shop.changes.filter((c) => c.orderId === String(order.id) && c.state === 'authorised')).toHaveLength(1)
  })

  it("answers 415 to a body that is not JSON and 413 to one over 64 KiB; the app's own routes are its own", async () => {
    const form = await fetch(`${url}/api/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'orderId=1',
    })
    expect(form.status).toBe(415)
    expect(await form.json()).toMatchObject({ error: 'UNSUPPORTED_MEDIA_TYPE' })
    const huge = await fetch(`${url}/api/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(70_000) }),
    })
    expect(huge.status).toBe(413)
    expect(await huge.json()).toMatchObject({ error: 'BODY_TOO_LARGE' })
    const wrongMethod = await fetch(`${url}/api/payments`)
    expect(wrongMethod.status).toBe(405)
    expect(await (await fetch(`${url}/`)).text()).toBe('the shop')
    const own = await fetch(`${url}/own`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })
    expect(own.status).toBe(200)
    // What the app's own parsers made of its own route's body: unchanged by the back end.
    const parsedBy: Record<string, string> = { raw: 'bytes', text: 'string', json: 'object', Fastify: 'object', no: 'undefined' }
    const expected = Object.entries(parsedBy).find(([word]) => name.includes(word))![1]
    expect((await own.json()).own).toBe(expected)
  })
})

describe('Fastify 5, registered wrongly', () => {
  it('refuses the plugin under a prefix, or without { backend }, when the app loads, naming what to do', async () => {
    const shop = await startShop(world, { connect: false, sleep: async () => {} })
    try {
      const prefixed = Fastify()
      await expect(prefixed.register(shopBackendPlugin, { backend: shop.backend, prefix: '/shop' })).rejects.toThrow(
        'shopBackendPlugin: registered under the prefix /shop; register it at the root',
      )
      await prefixed.close()
      const bare = Fastify()
      await expect(bare.register(shopBackendPlugin, shop.backend as never)).rejects.toThrow(
        'shopBackendPlugin: register it with { backend }',
      )
      await bare.close()
    } finally {
      await shop.close()
    }
  })
})

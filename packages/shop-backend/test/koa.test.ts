/**
 * The Koa 3 adapter with the real framework over loopback HTTP against the real sandbox: registration
 * through the shop-side endpoints, the checkout config, a card payment and an iDEAL payment finished
 * through payment-details, 415 and 413, and the app's own middleware beside it (every other path,
 * a 404 of its own included). With no body parser, and after parsers of the three kinds Koa shops
 * mount: one that keeps the text beside the parsed value (koa-bodyparser, @koa/bodyparser), one that
 * keeps the parsed value only (koa-body), one that keeps the bytes. Then the shopper's address: Koa's
 * `ctx.ip`, which follows `app.proxy` and `maxIpsCount`, and never a header Koa was not told to trust.
 */
import type { Server } from 'node:http'
import { text } from 'node:stream/consumers'
import Koa from 'koa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSecretBox, SHOP_SIDE_PATHS, type RequestInfo, type ShopBackend } from '../src/index.js'
import { shopBackendMiddleware, type KoaMiddlewareOptions } from '../src/koa/index.js'
import { freePort } from './support/listen.js'
import { approveAtBank } from './support/bank-page.js'
import { startShop, startWorld, type TestShop, type World } from './support/shop.js'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())

/** What a body parser mounted before the back end leaves on `ctx.request`. */
type Parser = 'none' | 'text-and-parsed' | 'parsed-only' | 'bytes'

/**
 * A body parser as the common Koa ones behave: JSON and form bodies read and parsed (form bodies as
 * the text's fields), others left unread. `text-and-parsed` keeps the text as `rawBody` too.
 */
function bodyParser(kind: Exclude<Parser, 'none'>): Koa.Middleware {
  return async (ctx, next) => {
    const type = ctx.request.type
    if (kind === 'bytes' || type === 'application/json' || type === 'application/x-www-form-urlencoded') {
      const raw = await text(ctx.req)
      const request = ctx.request as typeof ctx.request & { body?: unknown; rawBody?: string }
      if (kind === 'bytes') request.body = Buffer.from(raw, 'utf8')
      else {
        request.body = type === 'application/json' ? JSON.parse(raw) : Object.fromEntries(new URLSearchParams(raw))
        if (kind === 'text-and-parsed') request.rawBody = raw
      }
    }
    await next()
  }
}

interface App {
  readonly url: string
  /** `METHOD path status` of every request, as middleware mounted first sees it after the rest ran. */
  readonly seen: string[]
  close(): Promise<void>
}

/** The shop's Koa app on `port`: a logger first, a parser, the back end, then the shop's own middleware. */
async function koaApp(
  backend: ShopBackend,
  port: number,
  parser: Parser,
  app: Koa = new Koa(),
  options?: KoaMiddlewareOptions,
): Promise<App> {
  const seen: string[] = []
  app.use(async (ctx, next) => {
    await next()
    seen.push(`${ctx.method} ${ctx.path} ${ctx.status}`)
  })
  if (parser !== 'none') app.use(bodyParser(parser))
  app.use(shopBackendMiddleware(backend, options))
  app.use(async (ctx) => {
    const body = (ctx.request as typeof ctx.request & { body?: unknown }).body
    if (ctx.method === 'GET' && ctx.path === '/') ctx.body = 'the shop'
    else if (ctx.method === 'POST' && ctx.path === '/own') ctx.body = { own: Buffer.isBuffer(body) ? 'bytes' : typeof body }
    else {
      ctx.status = 404
      ctx.body = { shop: 'not found here' }
    }
  })
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(port, '127.0.0.1', () => resolve(s))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    },
  }
}

const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`
const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

describe.each(['none', 'text-and-parsed', 'parsed-only', 'bytes'] as const)('Koa 3, body parser: %s', (parser) => {
  let shop: TestShop
  let app: App
  beforeAll(async () => {
    const port = await freePort()
    shop = await startShop(world, { connect: false, shopUrl: `http://127.0.0.1:${port}`, sleep: async () => {} })
    app = await koaApp(shop.backend, port, parser)
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
    const key = await box.open((await shop.store.getSetting('basic_key'))!)
    const basicSecret = await box.open((await shop.store.getSetting('basic_secret'))!)
    const read = await fetch(`${app.url}${SHOP_SIDE_PATHS.settings}`, { headers: { authorization: basic(key, basicSecret) } })
    expect(read.status).toBe(200)
    expect(await read.json()).toEqual([{ id: 'service_secret', value: secret }])
    const wrong = await fetch(`${app.url}${SHOP_SIDE_PATHS.settings}`, { headers: { authorization: basic(key, `${basicSecret}x`) } })
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic realm=/)
    // The batch endpoint reads the body: another id is refused by name, whatever the parser made of it.
    const refused = await postJson(
      `${app.url}${SHOP_SIDE_PATHS.settingsBatch}`,
      { update: [{ id: 'basic_secret', value: 'mine' }] },
      { authorization: basic(key, basicSecret) },
    )
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ error: 'UNKNOWN_SETTING' })
  })

  it('serves the config; a card payment goes through once; an iDEAL payment ends through payment-details', async () => {
    const config = await fetch(`${app.url}/api/config`)
    expect(config.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await config.json()).toMatchObject({
      certificatePem: world.sandbox.certificatePem,
      checkoutReady: true,
      serviceReachable: true,
      paymentMethods: expect.arrayContaining(['scheme', 'ideal']),
    })

    const order = shop.createOrder()
    const submission = await shop.cardSubmission(order)
    const paid = await postJson(`${app.url}/api/payments`, submission)
    expect(paid.status).toBe(200)
    expect(await paid.json()).toEqual({ resultCode: 'Authorised' })
    // The same submission again (a double click): the stored answer, no second payment.
    expect(await (await postJson(`${app.url}/api/payments`, submission)).json()).toEqual({ resultCode: 'Authorised' })
    expect(world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)

    const redirected = shop.createOrder()
    const started = await postJson(`${app.url}/api/payments`, shop.idealSubmission(redirected))
    const action = ((await started.json()) as { resultCode: string; action: { url: string } }).action
    expect(action).toMatchObject({ type: 'redirect', url: expect.stringContaining('/redirect/') })
    const redirectResult = await approveAtBank(action.url)
    const finished = await postJson(`${app.url}/api/payment-details`, { orderId: redirected.id, details: { redirectResult } })
    expect(finished.status).toBe(200)
    expect(await finished.json()).toEqual({ resultCode: 'Authorised' })
    expect(shop.changes.filter((c) => c.orderId === redirected.id && c.state === 'authorised')).toHaveLength(1)
  })

  it('answers 415 to a body that is not JSON, 413 to one over 64 KiB and 405 to a wrong method', async () => {
    const form = await fetch(`${app.url}/api/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'orderId=1',
    })
    expect(form.status).toBe(415)
    expect(await form.json()).toMatchObject({ error: 'UNSUPPORTED_MEDIA_TYPE' })
    const huge = await postJson(`${app.url}/api/payments`, { pad: 'x'.repeat(70_000) })
    expect(huge.status).toBe(413)
    expect(await huge.json()).toMatchObject({ error: 'BODY_TOO_LARGE' })
    // Sent in chunks with no declared length, the body is cut off as it streams (unless a parser read it first).
    const chunked = await fetch(`${app.url}/api/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Blob([JSON.stringify({ pad: 'x'.repeat(70_000) })]).stream(),
      duplex: 'half',
    } as RequestInit)
    expect(chunked.status).toBe(413)
    expect((await fetch(`${app.url}/api/payments`)).status).toBe(405)
  })

  it("passes every other path to the shop's own middleware, its 404 too; middleware before it sees the back end's status", async () => {
    expect(await (await fetch(`${app.url}/`)).text()).toBe('the shop')
    const missing = await fetch(`${app.url}/api/no-such-thing`)
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ shop: 'not found here' })
    // What the app's own parser made of its own route's body: unchanged by the back end.
    const own = await postJson(`${app.url}/own`, { a: 1 })
    const expected = { none: 'undefined', 'text-and-parsed': 'object', 'parsed-only': 'object', bytes: 'bytes' }[parser]
    expect(await own.json()).toEqual({ own: expected })
    expect(app.seen).toEqual(expect.arrayContaining(['GET /api/config 200', 'POST /api/payments 413', 'GET /api/no-such-thing 404']))
  })
})

describe("Koa 3: the shopper's address", () => {
  let shop: TestShop
  const seen: Array<string | undefined> = []
  /** The shop's back end, noting the address each request reaches it with. */
  let watched: ShopBackend
  const apps: App[] = []
  beforeAll(async () => {
    shop = await startShop(world)
    watched = {
      ...shop.backend,
      fetch: (request: Request, info?: RequestInfo) => {
        seen.push(info?.ip)
        return shop.backend.fetch(request, info)
      },
    }
  })
  afterAll(async () => {
    for (const app of apps) await app.close()
    await shop?.close()
  })
  async function addressSeen(app: App, forwardedFor?: string): Promise<string | undefined> {
    const before = seen.length
    const answer = await fetch(`${app.url}/api/config`, { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} })
    expect(answer.status).toBe(200)
    expect(seen).toHaveLength(before + 1)
    return seen.at(-1)
  }
  const start = async (app?: Koa, options?: KoaMiddlewareOptions) => {
    const started = await koaApp(watched, await freePort(), 'none', app, options)
    apps.push(started)
    return started
  }

  it('is the socket’s by default: an X-Forwarded-For the client wrote is ignored', async () => {
    const app = await start()
    expect(await addressSeen(app)).toMatch(/^(::ffff:)?127\.0\.0\.1$/)
    expect(await addressSeen(app, '198.51.100.1')).toMatch(/^(::ffff:)?127\.0\.0\.1$/)
  })

  it('follows app.proxy with maxIpsCount: the entry the proxy appended, not one the client wrote before it', async () => {
    const app = await start(new Koa({ proxy: true, maxIpsCount: 1 }))
    expect(await addressSeen(app, '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7')
    // Two proxies in front: the second-to-last entry is the shopper's.
    const twoHops = await start(new Koa({ proxy: true, maxIpsCount: 2 }))
    expect(await addressSeen(twoHops, '198.51.100.1, 203.0.113.7, 10.0.0.5')).toBe('203.0.113.7')
    // Without the header, the socket's.
    expect(await addressSeen(app)).toMatch(/^(::ffff:)?127\.0\.0\.1$/)
  })

  it('is what the ip option says when given', async () => {
    const app = await start(new Koa(), { ip: (ctx) => (ctx.req.headers['x-real-ip'] as string | undefined) ?? ctx.ip })
    const answer = await fetch(`${app.url}/api/config`, { headers: { 'x-real-ip': '203.0.113.9' } })
    expect(answer.status).toBe(200)
    expect(seen.at(-1)).toBe('203.0.113.9')
  })
})

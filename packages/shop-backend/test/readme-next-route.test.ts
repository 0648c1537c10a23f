/**
 * The README's Next.js route file (app/api/[...path]/route.ts), as written, handed Web `Request`s
 * the way Next.js's App Router hands them to a route handler (the request, then a context with the
 * catch-all's params): the back end's `fetch` works there as it is. Next.js itself is not run here;
 * its build of the same file is the README's to keep right, and the file is type-checked from the
 * packed packages with the README's other examples.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RequestInfo, ShopBackend } from '../src/index.js'
import { useWorld, type TestShop } from './support/shop.js'

const README = new URL('../README.md', import.meta.url)
const ROUTE_MARK = '// app/api/[...path]/route.ts'

/** The README's ```ts block that begins with the route file's name. */
function routeBlock(): string {
  const blocks = [...readFileSync(README, 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!)
  const found = blocks.filter((code) => code.startsWith(ROUTE_MARK))
  expect(found).toHaveLength(1)
  return found[0]!
}

type RouteHandler = (request: Request, context: { params: Promise<{ path: string[] }> }) => Promise<Response>
interface RouteModule {
  readonly GET: RouteHandler
  readonly POST: RouteHandler
  readonly runtime: string
  readonly dynamic: string
}

const { shop: startShop } = useWorld()
const globals = globalThis as typeof globalThis & { shopBackend?: () => Promise<ShopBackend> }
let dir: string
let route: RouteModule
let shop: TestShop
const seen: Array<string | undefined> = []

beforeAll(async () => {
  // The README's block declares `shopBackend()`, which its project imports from lib/shop-backend.ts: here it is a global.
  dir = mkdtempSync(join(tmpdir(), 'readme-next-route-'))
  const file = join(dir, 'route.mjs')
  const js = ts.transpileModule(routeBlock(), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } })
  writeFileSync(file, js.outputText)
  route = (await import(pathToFileURL(file).href)) as RouteModule
})
afterAll(() => {
  delete globals.shopBackend
  rmSync(dir, { recursive: true, force: true })
})

/** A request as the App Router hands it to `app/api/[...path]/route.ts`. */
function call(handler: RouteHandler, path: string, init: RequestInit = {}): Promise<Response> {
  const request = new Request(`http://127.0.0.1:3000${path}`, init)
  return handler(request, { params: Promise.resolve({ path: path.split('/').slice(2) }) })
}

describe("the README's Next.js route handler", () => {
  it('declares the Node runtime and no caching, as Next.js reads them from the route file', () => {
    expect({ runtime: route.runtime, dynamic: route.dynamic }).toEqual({ runtime: 'nodejs', dynamic: 'force-dynamic' })
  })

  it('serves the config and takes a card payment to Authorised, with the address its proxy appended', async () => {
    shop = await startShop()
    globals.shopBackend = async () => ({
      ...shop.backend,
      fetch: (request: Request, info?: RequestInfo) => {
        seen.push(info?.ip)
        return shop.backend.fetch(request, info)
      },
    })
    const config = await call(route.GET, '/api/config', { headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' } })
    expect(config.status).toBe(200)
    expect(await config.json()).toMatchObject({ checkoutReady: true, paymentMethods: expect.arrayContaining(['scheme']) })
    expect(seen.at(-1)).toBe('203.0.113.7')

    const order = shop.createOrder()
    const paid = await call(route.POST, '/api/payments', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
      body: JSON.stringify(await shop.cardSubmission(order)),
    })
    expect(paid.status).toBe(200)
    expect(await paid.json()).toEqual({ resultCode: 'Authorised' })
    expect(shop.changes.filter((c) => c.orderId === order.id && c.state === 'authorised')).toHaveLength(1)
    // Without the header (no proxy in front): no address, as the README says.
    await call(route.GET, '/api/config')
    expect(seen.at(-1)).toBeUndefined()
  })
})

/**
 * The shopper's address through `toNodeListener` on a real node:http server over loopback: the
 * socket's by default, whatever `X-Forwarded-For` says; with `trustProxy`, the header's right-most
 * entry that is not a trusted proxy, and only on a request that came from one. The parsing itself
 * (ports, IPv6, IPv4-mapped addresses, subnets, bad entries) is checked on the functions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RequestInfo, ShopBackend } from '../src/index.js'
import { toNodeListener, type NodeListenerOptions } from '../src/node/index.js'
import { forwardedClient, trustedProxies } from '../src/node/forwarded-for.js'
import { listen } from './support/listen.js'
import { startShop, startWorld, type TestShop, type World } from './support/shop.js'

let world: World
let shop: TestShop
/** The address each request reached the back end with. */
const seen: Array<string | undefined> = []
let watched: ShopBackend
const servers: Array<Awaited<ReturnType<typeof listen>>> = []

beforeAll(async () => {
  world = await startWorld()
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
  for (const server of servers) await server.close()
  await shop?.close()
  await world?.close()
})

async function server(options?: NodeListenerOptions) {
  const started = await listen(toNodeListener(watched, { fallback: (_req, res) => res.writeHead(404).end('the shop'), ...options }))
  servers.push(started)
  return started
}

/** The address the back end saw for one GET /api/config sent with this X-Forwarded-For. */
async function addressSeen(url: string, forwardedFor?: string): Promise<string | undefined> {
  const before = seen.length
  const answer = await fetch(`${url}/api/config`, { headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } })
  expect(answer.status).toBe(200)
  expect(await answer.json()).toMatchObject({ checkoutReady: true })
  expect(seen).toHaveLength(before + 1)
  return seen.at(-1)
}

const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$/

describe('toNodeListener: the shopper’s address', () => {
  it('is the socket’s without trustProxy; a spoofed X-Forwarded-For is never read', async () => {
    const { url } = await server()
    expect(await addressSeen(url)).toMatch(LOOPBACK)
    expect(await addressSeen(url, '203.0.113.7')).toMatch(LOOPBACK)
    expect(await addressSeen(url, '198.51.100.1, 203.0.113.7')).toMatch(LOOPBACK)
  })

  it('is the entry a trusted proxy appended, not one the client wrote before it', async () => {
    // The loopback peer plays the proxy.
    const { url } = await server({ trustProxy: ['127.0.0.1'] })
    expect(await addressSeen(url, '203.0.113.7')).toBe('203.0.113.7')
    expect(await addressSeen(url, '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7')
    // A request from the proxy itself (a health check) has no header: the proxy's address.
    expect(await addressSeen(url)).toBe('127.0.0.1')
  })

  it('walks several hops: every trusted proxy is skipped, from the right', async () => {
    const { url } = await server({ trustProxy: ['127.0.0.1', '10.0.0.0/8'] })
    expect(await addressSeen(url, '198.51.100.1, 203.0.113.7, 10.0.0.5, 10.1.2.3')).toBe('203.0.113.7')
    // The client forging a trusted proxy's address on the left gains nothing: the first untrusted from the right wins.
    expect(await addressSeen(url, '10.9.9.9, 203.0.113.7, 10.0.0.5')).toBe('203.0.113.7')
    // Every entry trusted: the left-most.
    expect(await addressSeen(url, '10.0.0.1, 10.0.0.2')).toBe('10.0.0.1')
  })

  it('ignores the header of a request that did not come from a trusted proxy', async () => {
    const { url } = await server({ trustProxy: ['10.0.0.0/8'] })
    expect(await addressSeen(url, '203.0.113.7')).toMatch(LOOPBACK)
  })

  it('leaves the address out when the entry it would take is not an address', async () => {
    const { url } = await server({ trustProxy: ['127.0.0.1'] })
    expect(await addressSeen(url, '203.0.113.7, unknown')).toBeUndefined()
  })

  it('still passes other paths to the fallback', async () => {
    const { url } = await server({ trustProxy: ['127.0.0.1'] })
    const other = await fetch(`${url}/elsewhere`, { headers: { 'x-forwarded-for': '203.0.113.7' } })
    expect(other.status).toBe(404)
    expect(await other.text()).toBe('the shop')
  })

  it('refuses a trustProxy entry that is neither an address nor a subnet, naming it', () => {
    for (const entry of ['localhost', '10.0.0.0/33', '10.0.0.0/', '::/129', '10.0.0.0/8/1', ''])
      expect(() => toNodeListener(watched, { trustProxy: [entry] }), entry).toThrow(
        new TypeError(`trustProxy: ${JSON.stringify(entry)} is not an IP address or a subnet (address/prefix length)`),
      )
  })
})

describe('forwardedClient and trustedProxies', () => {
  const trusted = trustedProxies(['127.0.0.1', '::1', '10.0.0.0/8', 'fd00::/8'])

  it('match addresses and subnets of both families; IPv4-mapped IPv6 as IPv4', () => {
    expect(['127.0.0.1', '::ffff:127.0.0.1', '::1', '10.255.0.1', 'fd12::7'].map(trusted)).toEqual([true, true, true, true, true])
    expect(['127.0.0.2', '11.0.0.1', 'fe80::1', '2001:db8::1', 'not an address', ''].map(trusted)).toEqual(Array(6).fill(false))
  })

  it('read ports and brackets some proxies write, and IPv6 entries', () => {
    expect(forwardedClient('::1', '203.0.113.7:5123', trusted)).toBe('203.0.113.7')
    expect(forwardedClient('::1', '[2001:db8::1]:443', trusted)).toBe('2001:db8::1')
    expect(forwardedClient('::1', '2001:db8::1, fd00::2', trusted)).toBe('2001:db8::1')
    expect(forwardedClient('::ffff:10.0.0.3', '::ffff:203.0.113.7', trusted)).toBe('203.0.113.7')
  })

  it('take the header as node:http gives it, or as several headers', () => {
    expect(forwardedClient('127.0.0.1', ['198.51.100.1', '203.0.113.7'], trusted)).toBe('203.0.113.7')
    expect(forwardedClient('127.0.0.1', ' , 203.0.113.7 ,', trusted)).toBe('203.0.113.7')
  })

  it('give the socket’s address as it is when the socket is not trusted, and none without a socket', () => {
    expect(forwardedClient('::ffff:198.51.100.4', '203.0.113.7', trusted)).toBe('::ffff:198.51.100.4')
    expect(forwardedClient(undefined, '203.0.113.7', trusted)).toBeUndefined()
  })

  it('trust nothing with an empty list', () => {
    expect(forwardedClient('127.0.0.1', '203.0.113.7', trustedProxies([]))).toBe('127.0.0.1')
  })
})

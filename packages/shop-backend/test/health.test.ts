import { describe, expect, it } from 'vitest'
import { toNodeListener } from '../src/node/index.js'
import { POLLER_LEASE } from '../src/poller/create-poller.js'
import type { LedgerStore } from '../src/store/ledger-store.js'
import { listen } from './support/listen.js'
import { downWhile } from './support/store-down.js'
import { type TestShop, useWorld } from './support/shop.js'

const { shop, world } = useWorld()

async function get(s: TestShop, path: string, method = 'GET') {
  const response = await s.backend.fetch(new Request(`http://shop.test${path}`, { method }), { ip: '127.0.0.1' })
  const text = await response.text()
  return { status: response.status, text, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined }
}

/** A clock the test moves. */
function clock(start = Date.parse('2026-03-01T10:00:00.000Z')) {
  let now = start
  return {
    now: () => new Date(now),
    advance: (ms: number) => {
      now += ms
    },
    at: () => new Date(now).toISOString(),
  }
}

describe('liveness and readiness', () => {
  it('answers liveness at /healthz with 200 without reading the store, on GET and HEAD, over real HTTP', async () => {
    let reads = 0
    const s = await shop({
      wrapStore: (store) =>
        ({
          ...store,
          getSetting: (id) => {
            reads++
            return store.getSetting(id)
          },
        }) as LedgerStore,
    })
    const server = await listen(toNodeListener(s.backend))
    try {
      reads = 0
      const live = await fetch(`${server.url}/healthz`)
      expect(live.status).toBe(200)
      expect(await live.json()).toEqual({ status: 'pass' })
      expect(live.headers.get('cache-control')).toBe('no-store')
      expect((await fetch(`${server.url}/healthz`, { method: 'HEAD' })).status).toBe(200)
      expect(reads).toBe(0)
      expect((await fetch(`${server.url}/healthz`, { method: 'POST' })).status).toBe(405)
    } finally {
      await server.close()
    }
  })

  it('serves both checks at the paths given, lists them in paths and handles, and no longer at the defaults', async () => {
    const s = await shop({ healthPaths: { live: '/ops/live', ready: '/ops/ready' } })
    expect(s.backend.paths).toEqual(expect.arrayContaining(['/ops/live', '/ops/ready']))
    expect(s.backend.handles('/ops/ready')).toBe(true)
    expect(s.backend.handles('/readyz')).toBe(false)
    expect((await get(s, '/ops/live')).status).toBe(200)
    expect((await get(s, '/ops/ready')).body).toMatchObject({ checks: { store: { status: 'pass' } } })
    expect((await get(s, '/healthz')).status).toBe(404)
    const defaults = await shop()
    expect(defaults.backend.paths).toEqual(expect.arrayContaining(['/healthz', '/readyz']))
  })

  it('without certificatePem: the config closes the checkout, readiness warns NO_CERTIFICATE, and the start says so', async () => {
    const lines: string[] = []
    const s = await shop({ certificatePem: '', log: (line) => void lines.push(line) }) // none given (an empty text is none)
    expect(lines).toEqual([expect.stringContaining('no certificatePem')])
    const config = await get(s, '/api/config')
    expect(config.body).toMatchObject({ checkoutReady: false, serviceReachable: true })
    expect(config.body).not.toHaveProperty('certificatePem')
    const { status, body } = await get(s, '/readyz')
    expect([status, body?.status, (body?.checks as Record<string, unknown> | undefined)?.checkout]).toEqual([
      200,
      'warn',
      { status: 'warn', code: 'NO_CERTIFICATE' },
    ])
    // Given one, the checkout is open and nothing is said.
    const given = await shop({ log: (line) => void lines.push(`given: ${line}`) })
    expect((await get(given, '/api/config')).body).toMatchObject({ checkoutReady: true })
    expect(lines.filter((line) => line.startsWith('given: ') && line.includes('certificatePem'))).toEqual([])
  })

  it('is not ready (503) before registration: the registration and checkout checks say why, by code', async () => {
    const s = await shop({ connect: false })
    const { status, body } = await get(s, '/readyz')
    const checks = body?.checks as Record<string, unknown>
    expect([status, body?.status]).toEqual([503, 'fail'])
    expect([checks.store, checks.registration, checks.checkout]).toEqual([
      { status: 'pass' },
      { status: 'fail', code: 'NOT_REGISTERED' },
      { status: 'fail', code: 'CHECKOUT_CLOSED' },
    ])
  })

  it('is not ready once the checkout is closed (no store chosen)', async () => {
    const s = await shop()
    await s.backend.useStore('')
    expect(await get(s, '/readyz')).toMatchObject({
      status: 503,
      body: { checks: { checkout: { status: 'fail', code: 'CHECKOUT_CLOSED' } } },
    })
  })

  it('passes when the lease is held by another instance and the feed was read lately; warns once the read is stale', async () => {
    const time = clock()
    const s = await shop({ now: time.now })
    // No poller anywhere: ready for payments, with a warning.
    expect(await get(s, '/readyz')).toMatchObject({
      status: 200,
      body: { status: 'warn', checks: { poller: { status: 'warn', code: 'POLLER_NOT_RUNNING', leaseHeld: false } } },
    })
    await s.backend.poller.pollNow() // reads the feed, then gives its lease back (no timer runs here)
    await s.store.acquireLease(POLLER_LEASE, 'another-instance', 600_000, time.at())
    const ready = await get(s, '/readyz')
    expect(ready.status).toBe(200)
    expect(ready.body).toEqual({
      status: 'pass',
      checks: {
        store: { status: 'pass' },
        registration: { status: 'pass' },
        checkout: { status: 'pass' },
        poller: { status: 'pass', leaseHeld: true, lagMs: 0 },
      },
    })
    time.advance(60_001)
    expect(await get(s, '/readyz')).toMatchObject({
      status: 200,
      body: { status: 'warn', checks: { poller: { status: 'warn', code: 'POLLER_LAGGING', leaseHeld: true, lagMs: 60_001 } } },
    })
    // Chosen strict: the same state takes this instance out of the balancer.
    const strict = await shop({ storePath: s.storePath, secretKey: s.secretKey, now: time.now, readiness: { pollerProblem: 'fail' } })
    expect(await get(strict, '/readyz')).toMatchObject({ status: 503, body: { status: 'fail', checks: { poller: { status: 'fail' } } } })
    expect(await strict.backend.readiness()).toMatchObject({ status: 'fail', checks: { poller: { code: 'POLLER_LAGGING' } } })
  })

  it('a started poller on this instance makes the poller check pass', async () => {
    const s = await shop()
    s.backend.poller.start({ intervalMs: 20, leaseMs: 60_000 })
    for (let i = 0; i < 500 && (await s.backend.readiness()).status !== 'pass'; i++) await new Promise((r) => setTimeout(r, 10))
    expect(await s.backend.readiness()).toMatchObject({ status: 'pass', checks: { poller: { status: 'pass', leaseHeld: true } } })
  })

  it('says the store is unavailable by code only, and nothing of the error, ids, secrets or the lease holder', async () => {
    let down = false
    const s = await shop({ wrapStore: downWhile(() => down, 'getSetting') })
    await s.backend.poller.pollNow()
    const ready = await get(s, '/readyz')
    const readyMade = world().sandbox.readyMadeShop
    for (const secret of [readyMade.shopId, readyMade.storeId, readyMade.serviceSecret, s.backend.poller.holder])
      expect(ready.text).not.toContain(secret)
    down = true
    const unavailable = await get(s, '/readyz')
    expect(unavailable.status).toBe(503)
    expect(unavailable.body).toMatchObject({ status: 'fail', checks: { store: { status: 'fail', code: 'STORE_UNAVAILABLE' } } })
    expect(unavailable.text).not.toMatch(/ECONNREFUSED|hunter2|db\.internal/)
    // Liveness does not read the store: the process still serves.
    expect((await get(s, '/healthz')).status).toBe(200)
  })

  it('fails the store check when its reads outlast the readiness timeout', async () => {
    let hang = false
    const s = await shop({
      readiness: { timeoutMs: 20 },
      wrapStore: (store) => ({ ...store, getSetting: (id) => (hang ? new Promise<never>(() => {}) : store.getSetting(id)) }) as LedgerStore,
    })
    hang = true
    expect(await get(s, '/readyz')).toMatchObject({ status: 503, body: { checks: { store: { status: 'fail', code: 'STORE_TIMEOUT' } } } })
  })
})

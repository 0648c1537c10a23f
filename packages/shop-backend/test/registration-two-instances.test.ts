// Two back ends on one ledger registering at once behind one address.
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toNodeListener } from '../src/node/index.js'
import { listen } from './support/listen.js'
import { startShop, startWorld, type World } from './support/shop.js'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())

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

/**
 * chargeSavedCard: the shop charges a shopper's saved card without the shopper (a renewal), once,
 * on SQLite and PostgreSQL, also when two back ends on one ledger charge the order at once.
 */
import { describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { createShopBackend, generateSecretKey, type OrderChange, type ShopOrder } from '../src/index.js'
import { openPostgresStore } from '../src/postgres/index.js'
import { openSqliteStore } from '../src/sqlite/index.js'
import type { LedgerStore } from '../src/store/ledger-store.js'
import { freshDatabase, postgres } from './support/postgres.js'
import { savedCardWorld } from './support/saved-card-world.js'
import { patientClient, startShop } from './support/shop.js'

const t = savedCardWorld()
const { newShopper, orderOf, saveCard, shopperWithCard, paymentsAtSandbox } = t

const REFUSED_ON_FILE = findTestCard({ outcomeWithoutShopper: 'refused' })
/**
 * For the back ends charging at once: the proxy holds each call back, and a loaded machine must not
 * turn that wait into a timeout (the test is about one charge, not about deadlines).
 */
const patientShop = () => startShop(t.world, patientClient(t.world))

/**
 * Runs the charges while the service's payment answers are held back 400 ms, so the second back end
 * looks at the order while the first one's call is out (not after it ended); the distinct
 * idempotency keys of the payment POSTs that reached the sandbox meanwhile.
 */
async function chargedTogether<T>(charges: Array<() => Promise<T>>) {
  const before = t.world.proxy.keysForwarded('POST', '/payments')
  const original = t.world.proxy.rule
  // Long enough for the second charge to start while the first is in flight.
  t.world.proxy.rule = (method, path) =>
    method === 'POST' && path.endsWith('/payments') ? { action: 'forward', delayMs: 200 } : { action: 'forward' }
  try {
    const results = await Promise.allSettled(charges.map((charge) => charge()))
    const keys = t.world.proxy.keysForwarded('POST', '/payments').filter((k) => !before.includes(k))
    return { results, keys }
  } finally {
    t.world.proxy.rule = original
  }
}

describe('chargeSavedCard: the shop charges a saved card without the shopper', () => {
  it('authorised on SQLite: the attempt kept with its key, onOrderChange heard before it returns', async () => {
    const shop = await startShop(t.world)
    try {
      const { id, order } = await shopperWithCard(shop)
      const result = await shop.backend.chargeSavedCard(order.id, { storedPaymentMethodId: id, recurringProcessingModel: 'Subscription' })
      expect(result).toEqual({ resultCode: 'Authorised' })
      const [attempt, ...more] = await shop.store.listAttempts(String(order.id))
      expect(more).toEqual([])
      expect(attempt).toMatchObject({ state: 'authorised', idempotencyKey: expect.any(String), pspReference: expect.any(String) })
      expect(shop.changes.filter((c) => c.orderId === String(order.id)).map((c) => c.state)).toContain('authorised')
      // Again: the stored answer, no second charge.
      expect(await shop.backend.chargeSavedCard(order.id, { storedPaymentMethodId: id, recurringProcessingModel: 'Subscription' })).toEqual(
        {
          resultCode: 'Authorised',
        },
      )
      expect(t.world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
    } finally {
      await shop.close()
    }
  })

  it('a paid renewal charged again after its card was removed gets the stored Authorised, not a 422; nothing is sent', async () => {
    // A scheduler that lost the answer retries after the shopper unsubscribed: the renewal was made.
    const shop = await startShop(t.world)
    try {
      const { shopper, id, order } = await shopperWithCard(shop)
      const charge = { storedPaymentMethodId: id, recurringProcessingModel: 'Subscription' } as const
      expect(await shop.backend.chargeSavedCard(order.id, charge)).toEqual({ resultCode: 'Authorised' })
      await shop.backend.removeSavedCard({ shopperReference: shopper, storedPaymentMethodId: id })
      const sent = paymentsAtSandbox()
      expect(await shop.backend.chargeSavedCard(order.id, charge)).toEqual({ resultCode: 'Authorised' })
      expect(paymentsAtSandbox()).toBe(sent)
      // An order not paid yet is still checked against the cards the service lists now.
      await expect(shop.backend.chargeSavedCard(orderOf(shop, shopper).id, charge)).rejects.toMatchObject({
        code: 'STORED_PAYMENT_METHOD_UNKNOWN',
      })
      expect(paymentsAtSandbox()).toBe(sent)
    } finally {
      await shop.close()
    }
  })

  it('the card refused on file gives a refusal and a failed attempt', async () => {
    const shop = await startShop(t.world)
    try {
      const shopper = newShopper()
      const id = await saveCard(shop, shopper, REFUSED_ON_FILE)
      const order = orderOf(shop, shopper)
      const result = await shop.backend.chargeSavedCard(order.id, {
        storedPaymentMethodId: id,
        recurringProcessingModel: 'UnscheduledCardOnFile',
      })
      const [attempt] = await shop.store.listAttempts(String(order.id))
      expect(attempt).toMatchObject({ state: 'refused' })
      // The bank's reason, as the service gave it, for the merchant's renewal job (never the page's).
      expect(result).toEqual({ resultCode: 'Refused', refusalReason: expect.stringMatching(/\w/) })
      expect(result.refusalReason).toBe(attempt!.answer!.refusalReason)
      expect(t.world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(0)
    } finally {
      await shop.close()
    }
  })

  it('a refused charge is tried again once the repeat window is over: a new attempt, a new call', async () => {
    // A window of 0: every later charge is past it (a renewal tried again the next day).
    const shop = await startShop(t.world, { repeatWindowMs: 0 })
    try {
      const shopper = newShopper()
      const id = await saveCard(shop, shopper, REFUSED_ON_FILE)
      const order = orderOf(shop, shopper)
      const charge = { storedPaymentMethodId: id, recurringProcessingModel: 'UnscheduledCardOnFile' } as const
      const before = paymentsAtSandbox()
      expect(await shop.backend.chargeSavedCard(order.id, charge)).toMatchObject({ resultCode: 'Refused' })
      await new Promise((resolve) => setTimeout(resolve, 5))
      expect(await shop.backend.chargeSavedCard(order.id, charge)).toMatchObject({ resultCode: 'Refused' })
      expect((await shop.store.listAttempts(String(order.id))).map((a) => a.state)).toEqual(['refused', 'refused'])
      expect(paymentsAtSandbox() - before).toBe(2)
    } finally {
      await shop.close()
    }
  })

  it("another shopper's card is refused with nothing stored or charged", async () => {
    const shop = await startShop(t.world)
    try {
      const id = await saveCard(shop, newShopper())
      const before = paymentsAtSandbox()
      const order = orderOf(shop, newShopper())
      await expect(
        shop.backend.chargeSavedCard(order.id, { storedPaymentMethodId: id, recurringProcessingModel: 'Subscription' }),
      ).rejects.toMatchObject({ code: 'STORED_PAYMENT_METHOD_UNKNOWN' })
      expect(paymentsAtSandbox() - before).toBe(0)
      expect(await shop.store.listAttempts(String(order.id))).toEqual([])
    } finally {
      await shop.close()
    }
  })
})

/** A back end on `store`, connected as the sandbox's ready-made shop, finding orders in `orders`. */
function backendOn(store: LedgerStore, orders: Map<string, ShopOrder>, changes: OrderChange[], secretKey: Uint8Array) {
  const readyMade = t.world.sandbox.readyMadeShop
  const backend = createShopBackend({
    store,
    ...patientClient(t.world),
    secretKey,
    findOrder: (id) => orders.get(id),
    onOrderChange: (change) => void changes.push(change),
    shopUrl: 'http://127.0.0.1:9',
  })
  return {
    backend,
    connect: () => backend.connect({ shopId: readyMade.shopId, serviceSecret: readyMade.serviceSecret, storeId: readyMade.storeId }),
  }
}

describe.skipIf(postgres.missing !== undefined)('chargeSavedCard on PostgreSQL', () => {
  it('authorised; two back ends on one database charging the order at once charge it once', async () => {
    const saver = await patientShop()
    const database = await freshDatabase('saved_cards')
    const stores = [
      await openPostgresStore({ connectionString: database.url }),
      await openPostgresStore({ connectionString: database.url }),
    ]
    try {
      const shopper = newShopper()
      const id = await saveCard(saver, shopper)
      const orders = new Map<string, ShopOrder>()
      const changes: OrderChange[][] = [[], []]
      const secretKey = generateSecretKey()
      const instances = stores.map((store, i) => backendOn(store, orders, changes[i]!, secretKey))
      for (const instance of instances) await instance.connect()
      const charge = { storedPaymentMethodId: id, recurringProcessingModel: 'Subscription' } as const

      const single = { ...saver.createOrder(900), shopperReference: shopper }
      orders.set(String(single.id), single)
      expect(await instances[0]!.backend.chargeSavedCard(single.id, charge)).toEqual({ resultCode: 'Authorised' })
      expect(changes[0]!.map((c) => c.state)).toContain('authorised')

      const contested = { ...saver.createOrder(1100), shopperReference: shopper }
      orders.set(String(contested.id), contested)
      const { results, keys } = await chargedTogether(
        instances.map((instance) => () => instance.backend.chargeSavedCard(contested.id, charge)),
      )
      // One key reached the sandbox: the attempt's, stored before the call, reused by the other instance.
      expect(keys).toHaveLength(1)
      expect(results).toEqual([
        { status: 'fulfilled', value: { resultCode: 'Authorised' } },
        { status: 'fulfilled', value: { resultCode: 'Authorised' } },
      ])
      expect(t.world.sandboxRows<{ n: number }>('SELECT COUNT(*) AS n FROM payments WHERE reference = ?', contested.reference)[0]!.n).toBe(
        1,
      )
      expect(t.world.sandboxPaymentsFor(contested.reference, 'Authorised')).toBe(1)
      const attempts = await stores[0]!.listAttempts(String(contested.id))
      expect(attempts.map((a) => a.state)).toEqual(['authorised'])
    } finally {
      for (const store of stores) await store.close()
      await database.drop()
      await saver.close()
    }
  })
})

describe('chargeSavedCard, two back ends on one SQLite file', () => {
  it('charging the order at once charges it once', async () => {
    const saver = await patientShop()
    const second = openSqliteStore({ path: saver.storePath })
    try {
      const shopper = newShopper()
      const id = await saveCard(saver, shopper)
      const orders = new Map<string, ShopOrder>()
      const changes: OrderChange[] = []
      const other = backendOn(second, orders, changes, saver.secretKey)
      await other.connect()
      const order = { ...saver.createOrder(1300), shopperReference: shopper }
      orders.set(String(order.id), order)
      saver.orders.set(String(order.id), order)
      const charge = { storedPaymentMethodId: id, recurringProcessingModel: 'UnscheduledCardOnFile' } as const
      const { results, keys } = await chargedTogether([
        () => saver.backend.chargeSavedCard(order.id, charge),
        () => other.backend.chargeSavedCard(order.id, charge),
      ])
      expect(keys).toHaveLength(1)
      // Both hear the one outcome: the loser of the insert gets the same attempt's answer, not a second charge.
      expect(results).toEqual([
        { status: 'fulfilled', value: { resultCode: 'Authorised' } },
        { status: 'fulfilled', value: { resultCode: 'Authorised' } },
      ])
      expect(t.world.sandboxRows<{ n: number }>('SELECT COUNT(*) AS n FROM payments WHERE reference = ?', order.reference)[0]!.n).toBe(1)
      expect((await saver.store.listAttempts(String(order.id))).map((a) => a.state)).toEqual(['authorised'])
    } finally {
      await second.close()
      await saver.close()
    }
  })
})

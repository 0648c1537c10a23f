import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findTestCard, type TestCard } from '@card-jwe/testkit/test-cards'
import { encryptSecurityCode, importCertificate, toSavedCardPaymentMethod } from 'card-jwe'
import { connectServiceClient, createShopBackend, generateSecretKey, type OrderChange, type ShopOrder } from '../src/index.js'
import { openPostgresStore } from '../src/postgres/index.js'
import { openSqliteStore } from '../src/sqlite/index.js'
import type { LedgerStore } from '../src/store/ledger-store.js'
import { freshDatabase, postgres } from './support/postgres.js'
import { startShop, startWorld, type TestShop, type World } from './support/shop.js'
import { answerChallenge, runThreeDSMethod } from './support/threeds.js'
import { CHALLENGE_ANSWER } from '@card-jwe/sandbox'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())

const VISA = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
const REFUSED_ON_FILE = findTestCard({ outcomeWithoutShopper: 'refused' })
/**
 * For the back ends charging at once: the proxy holds each call back, and a loaded machine must not
 * turn that wait into a timeout (the test is about one charge, not about deadlines).
 */
const PATIENT = { deadlineMs: 15_000, attemptTimeoutMs: 10_000, backoff: { initialMs: 50, maxMs: 100 } } as const
const patientShop = () => startShop(world, connectServiceClient({ baseUrl: world.proxy.baseUrl, ...PATIENT }))
let shoppers = 0
const newShopper = () => `shopper-${Date.now().toString(36)}-${++shoppers}`

/** An order of `shopperReference` in the shop's own records (what `findOrder` gives). */
function orderOf(shop: TestShop, shopperReference: string | undefined, value = 1500): ShopOrder {
  const order = { ...shop.createOrder(value), ...(shopperReference ? { shopperReference } : {}) }
  shop.orders.set(String(order.id), order)
  return order
}

/** Saves `card` for the shopper the way a page does (a paid order with storePaymentMethod); its saved id. */
async function saveCard(shop: TestShop, shopperReference: string, card: TestCard = VISA): Promise<string> {
  const order = orderOf(shop, shopperReference)
  const paid = await shop.post('/api/payments', { ...(await shop.cardSubmission(order, card)), storePaymentMethod: true })
  expect(paid.body).toEqual({ resultCode: 'Authorised' })
  const cards = await shop.backend.savedCards(shopperReference)
  const saved = cards.find((c) => c.lastFour === card.number.slice(-4))
  if (!saved) throw new Error('the card was not saved')
  return saved.id
}

async function getConfig(shop: TestShop, query: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await shop.backend.fetch(new Request(`http://shop.test/api/config${query}`), { ip: '127.0.0.1' })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** What the page posts to pay with a saved card: its id and the code, encrypted alone. */
async function savedCardSubmission(order: ShopOrder, storedPaymentMethodId: string, card: TestCard = VISA) {
  const certificate = await importCertificate(world.sandbox.certificatePem)
  const jwe = await encryptSecurityCode({ securityCode: card.securityCode, brand: card.brand }, certificate)
  return {
    orderId: order.id,
    reference: order.reference,
    amount: order.amount,
    paymentMethod: toSavedCardPaymentMethod(storedPaymentMethodId, jwe),
  }
}

const paymentsAtSandbox = () => world.proxy.counted('POST', '/payments')

/**
 * Runs the charges while the service's payment answers are held back 400 ms, so the second back end
 * looks at the order while the first one's call is out (not after it ended); the distinct
 * idempotency keys of the payment POSTs that reached the sandbox meanwhile.
 */
async function chargedTogether<T>(charges: Array<() => Promise<T>>) {
  const before = world.proxy.keysForwarded('POST', '/payments')
  const original = world.proxy.rule
  // Long enough for the second charge to start while the first is in flight.
  world.proxy.rule = (method, path) =>
    method === 'POST' && path.endsWith('/payments') ? { action: 'forward', delayMs: 200 } : { action: 'forward' }
  try {
    const results = await Promise.allSettled(charges.map((charge) => charge()))
    const keys = world.proxy.keysForwarded('POST', '/payments').filter((k) => !before.includes(k))
    return { results, keys }
  } finally {
    world.proxy.rule = original
  }
}

describe('saved cards at the checkout (the page)', () => {
  it("/api/config?orderId= offers the order's shopper's saved cards: id, brand, last four, expiry, nothing more", async () => {
    const shop = await startShop(world)
    try {
      const shopper = newShopper()
      const id = await saveCard(shop, shopper)
      const config = await getConfig(shop, `?orderId=${encodeURIComponent(String(orderOf(shop, shopper).id))}`)
      expect(config.status).toBe(200)
      expect(config.body.savedCards).toEqual([
        {
          id,
          brand: 'visa',
          lastFour: VISA.number.slice(-4),
          expiryMonth: expect.stringMatching(/^\d{2}$/),
          expiryYear: expect.stringMatching(/^\d{4}$/),
        },
      ])
      // Without an order, or for an order without a shopper: none offered.
      expect((await getConfig(shop, '')).body).not.toHaveProperty('savedCards')
      expect((await getConfig(shop, `?orderId=${orderOf(shop, undefined).id}`)).body).not.toHaveProperty('savedCards')
      // Another shopper's order never sees them.
      expect((await getConfig(shop, `?orderId=${orderOf(shop, newShopper()).id}`)).body.savedCards).toEqual([])
      expect((await getConfig(shop, '?orderId=no-such-order')).status).toBe(404)
    } finally {
      await shop.close()
    }
  })

  it('a saved card of the shopper pays with its code alone; the request carries ContAuth and CardOnFile', async () => {
    const shop = await startShop(world)
    try {
      const shopper = newShopper()
      const id = await saveCard(shop, shopper)
      const order = orderOf(shop, shopper)
      const paid = await shop.post('/api/payments', await savedCardSubmission(order, id))
      expect(paid).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
      // The sandbox refuses a saved card without ContAuth and a model (rule between the fields): authorised says they were sent.
      expect(world.sandboxRows('SELECT shopper_reference AS shopper FROM payments WHERE reference = ?', order.reference)).toEqual([
        { shopper },
      ])
      expect(world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
    } finally {
      await shop.close()
    }
  })

  it("another shopper's saved card is refused by the field's name before anything is sent, as an unknown id is", async () => {
    const shop = await startShop(world)
    try {
      const owner = newShopper()
      const id = await saveCard(shop, owner)
      const before = paymentsAtSandbox()
      const theirs = orderOf(shop, newShopper())
      const refused = await shop.post('/api/payments', await savedCardSubmission(theirs, id))
      const unknown = await shop.post('/api/payments', await savedCardSubmission(orderOf(shop, newShopper()), 'NoSuchCard123'))
      expect(refused.status).toBe(422)
      expect(refused.body).toMatchObject({ error: 'STORED_PAYMENT_METHOD_UNKNOWN' })
      expect(JSON.stringify(refused.body)).toContain('paymentMethod.storedPaymentMethodId')
      expect(JSON.stringify(refused.body)).not.toContain(owner)
      // One answer for both: it never tells whether the id exists for someone else.
      expect(unknown).toEqual(refused)
      expect(paymentsAtSandbox() - before).toBe(0)
      expect(await shop.store.listAttempts(String(theirs.id))).toEqual([])
    } finally {
      await shop.close()
    }
  })
})

const tokenOf = (body: Record<string, unknown>) => (body.action as { token: string }).token

/** The page's 3-D Secure steps after `started`: fingerprint, challenge answered; the last answer. */
async function throughThreeDS(shop: TestShop, orderId: string | number, started: Record<string, unknown>) {
  const challenge = await shop.post('/api/payment-details', {
    orderId,
    details: { threeDSResult: await runThreeDSMethod(tokenOf(started)) },
  })
  expect(challenge.body).toMatchObject({ resultCode: 'ChallengeShopper', action: { subtype: 'challenge' } })
  return shop.post('/api/payment-details', {
    orderId,
    details: { threeDSResult: await answerChallenge(tokenOf(challenge.body), CHALLENGE_ANSWER) },
  })
}

describe('a saved card that challenges, at the checkout', () => {
  it('gets the 3-D Secure actions a new card gets, and is authorised once they are answered', async () => {
    const shop = await startShop(world)
    try {
      const shopper = newShopper()
      const card = findTestCard({ brand: 'visa', threeDSecure: 'challenge', outcome: 'authorised' })
      const first = orderOf(shop, shopper)
      const saving = await shop.post('/api/payments', { ...(await shop.cardSubmission(first, card)), storePaymentMethod: true })
      expect((await throughThreeDS(shop, first.id, saving.body)).body).toEqual({ resultCode: 'Authorised' })
      const saved = (await shop.backend.savedCards(shopper)).find((c) => c.lastFour === card.number.slice(-4))
      expect(saved).toBeDefined()

      const order = orderOf(shop, shopper)
      const started = await shop.post('/api/payments', await savedCardSubmission(order, saved!.id, card))
      expect(started.body).toMatchObject({ resultCode: 'IdentifyShopper', action: { type: 'threeDS2', subtype: 'fingerprint' } })
      expect((await throughThreeDS(shop, order.id, started.body)).body).toEqual({ resultCode: 'Authorised' })
      expect(world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
    } finally {
      await shop.close()
    }
  })
})

describe('chargeSavedCard: the shop charges a saved card without the shopper', () => {
  it('authorised on SQLite: the attempt kept with its key, onOrderChange heard before it returns', async () => {
    const shop = await startShop(world)
    try {
      const shopper = newShopper()
      const id = await saveCard(shop, shopper)
      const order = orderOf(shop, shopper)
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
      expect(world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
    } finally {
      await shop.close()
    }
  })

  it('the card refused on file gives a refusal and a failed attempt', async () => {
    const shop = await startShop(world)
    try {
      const shopper = newShopper()
      const id = await saveCard(shop, shopper, REFUSED_ON_FILE)
      const order = orderOf(shop, shopper)
      const result = await shop.backend.chargeSavedCard(order.id, {
        storedPaymentMethodId: id,
        recurringProcessingModel: 'UnscheduledCardOnFile',
      })
      expect(result).toMatchObject({ resultCode: 'Refused' })
      const [attempt] = await shop.store.listAttempts(String(order.id))
      expect(attempt).toMatchObject({ state: 'refused' })
      expect(world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(0)
    } finally {
      await shop.close()
    }
  })

  it('a refused charge is tried again once the repeat window is over: a new attempt, a new call', async () => {
    // A window of 0: every later charge is past it (a renewal tried again the next day).
    const shop = await startShop(world, { repeatWindowMs: 0 })
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
    const shop = await startShop(world)
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
  const readyMade = world.sandbox.readyMadeShop
  const backend = createShopBackend({
    store,
    ...connectServiceClient({ baseUrl: world.proxy.baseUrl, ...PATIENT }),
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
      expect(world.sandboxRows<{ n: number }>('SELECT COUNT(*) AS n FROM payments WHERE reference = ?', contested.reference)[0]!.n).toBe(1)
      expect(world.sandboxPaymentsFor(contested.reference, 'Authorised')).toBe(1)
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
      expect(world.sandboxRows<{ n: number }>('SELECT COUNT(*) AS n FROM payments WHERE reference = ?', order.reference)[0]!.n).toBe(1)
      expect((await saver.store.listAttempts(String(order.id))).map((a) => a.state)).toEqual(['authorised'])
    } finally {
      await second.close()
      await saver.close()
    }
  })
})

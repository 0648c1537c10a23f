import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { startTestSandbox, type TestSandbox } from '@card-jwe/sandbox'
import { findTestCard, type TestCard } from '@card-jwe/testkit/test-cards'
import { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import {
  connectServiceClient,
  createShopBackend,
  generateSecretKey,
  type OrderChange,
  type ShopBackend,
  type ShopBackendOptions,
  type ShopOrder,
} from '../../src/index.js'
import { openSqliteStore, type SqliteStore } from '../../src/sqlite/index.js'
import type { LedgerStore } from '../../src/store/ledger-store.js'
import { startServiceProxy, type ProxyAction, type ServiceProxy } from './service-proxy.js'

/** One sandbox and proxy per test file; a fresh shop (store, orders) per test. */
export interface World {
  readonly sandbox: TestSandbox
  readonly proxy: ServiceProxy
  /** Payments the sandbox holds for a shop: the one count that says "charged once". */
  sandboxPayments(shopId: string): number
  /** The payments at the sandbox for this order reference with this result code (`Authorised`: money the shopper pays). */
  sandboxPaymentsFor(reference: string, resultCode: string): number
  /** Modifications of one kind the sandbox holds for a payment: "cancelled once". */
  sandboxModifications(pspReference: string, kind: 'capture' | 'refund' | 'cancel'): number
  /** Rows of a query on the sandbox's database, read-only: what the service holds. */
  sandboxRows<Row>(sql: string, ...params: unknown[]): Row[]
  /** Runs `call` while the proxy takes `action` on the requests `picked` picks; its rule is restored after. */
  whileProxy<T>(action: ProxyAction, picked: (method: string, path: string) => boolean, call: () => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** `now`: the sandbox's clock, for a test that moves it. */
export async function startWorld(options: { readonly now?: () => Date } = {}): Promise<World> {
  const sandbox = await startTestSandbox(options.now ? { now: options.now } : {})
  const proxy = await startServiceProxy(sandbox.baseUrl)
  function sandboxRows<Row>(sql: string, ...params: unknown[]): Row[] {
    const db = new Database(sandbox.sandbox.databasePath, { readonly: true, fileMustExist: true })
    try {
      return db.prepare(sql).all(...params) as Row[]
    } finally {
      db.close()
    }
  }
  const count = (sql: string, ...params: unknown[]) => sandboxRows<{ n: number }>(sql, ...params)[0]!.n
  return {
    sandbox,
    proxy,
    sandboxRows,
    sandboxPayments: (shopId) => count('SELECT COUNT(*) AS n FROM payments WHERE shop_id = ?', shopId),
    sandboxPaymentsFor: (reference, resultCode) =>
      count('SELECT COUNT(*) AS n FROM payments WHERE reference = ? AND result_code = ?', reference, resultCode),
    sandboxModifications: (pspReference, kind) =>
      count('SELECT COUNT(*) AS n FROM modifications WHERE payment_psp_reference = ? AND kind = ?', pspReference, kind),
    async whileProxy(action, picked, call) {
      const original = proxy.rule
      proxy.rule = (method, path) => ({ action: picked(method, path) ? action : 'forward' })
      try {
        return await call()
      } finally {
        proxy.rule = original
      }
    },
    async close() {
      await proxy.close()
      await sandbox.close()
    },
  }
}

export interface TestShop {
  readonly backend: ShopBackend
  /** The shop's own SQLite store (its file at `storePath`). */
  readonly store: SqliteStore
  /** The store the backend writes: `store`, unless another was given (`store` or `wrapStore`). */
  readonly ledger: LedgerStore
  readonly storePath: string
  readonly secretKey: Uint8Array
  readonly shopId: string
  readonly orders: Map<string, ShopOrder>
  /** Everything onOrderChange heard, in order. */
  readonly changes: OrderChange[]
  createOrder(value?: number): ShopOrder
  /** What the page posts to /api/payments for a card (encrypted now, as the page does at each Pay). */
  cardSubmission(order: ShopOrder, card?: TestCard): Promise<Record<string, unknown>>
  idealSubmission(order: ShopOrder): Record<string, unknown>
  post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }>
  close(): Promise<void>
}

let orderCounter = 0

/**
 * A client for tests whose proxy holds calls back: a loaded machine must not turn that wait into a
 * timeout (such a test is about one call, not about deadlines).
 */
export const patientClient = (world: World) => proxiedClient(world, { deadlineMs: 15_000, attemptTimeoutMs: 10_000 })

/** The service client through the world's proxy, with these deadlines and a short backoff. */
const proxiedClient = (world: World, deadlines: { readonly deadlineMs: number; readonly attemptTimeoutMs: number }) =>
  connectServiceClient({ baseUrl: world.proxy.baseUrl, fetch: world.proxy.fetch, ...deadlines, backoff: { initialMs: 50, maxMs: 100 } })

/** A shop on a fresh SQLite file, connected as the sandbox's ready-made shop, talking through the proxy. */
export async function startShop(
  world: World,
  overrides: Partial<ShopBackendOptions> & {
    readonly storePath?: string
    readonly secretKey?: Uint8Array
    readonly connect?: boolean
    /** The store the backend gets, made from the one it would get (`store`, else its own SQLite file) to watch its calls. */
    readonly wrapStore?: (store: LedgerStore) => LedgerStore
  } = {},
): Promise<TestShop> {
  const dir = await mkdtemp(join(tmpdir(), 'shop-backend-test-'))
  const storePath = overrides.storePath ?? join(dir, 'payments.sqlite')
  const store = openSqliteStore({ path: storePath })
  const orders = new Map<string, ShopOrder>()
  const changes: OrderChange[] = []
  const secretKey = overrides.secretKey ?? generateSecretKey()
  const readyMade = world.sandbox.readyMadeShop
  const { wrapStore, store: given = store, ...backendOverrides } = overrides
  const ledger = wrapStore ? wrapStore(given) : given
  const backend = createShopBackend({
    store: ledger,
    // Short deadlines: a lost answer is noticed in about a second, not fifteen.
    ...proxiedClient(world, { deadlineMs: 2_000, attemptTimeoutMs: 1_000 }),
    secretKey,
    findOrder: (id) => orders.get(id),
    onOrderChange: (change) => void changes.push(change),
    shopUrl: 'http://127.0.0.1:9',
    certificatePem: world.sandbox.certificatePem,
    ...backendOverrides,
  })
  if (overrides.connect !== false)
    await backend.connect({ shopId: readyMade.shopId, serviceSecret: readyMade.serviceSecret, storeId: readyMade.storeId })
  const certificate = await importCertificate(world.sandbox.certificatePem)
  return {
    backend,
    store,
    ledger,
    storePath,
    secretKey,
    shopId: readyMade.shopId,
    orders,
    changes,
    createOrder(value = 2800) {
      const id = `${Date.now().toString(36)}${++orderCounter}`
      const order = { id, reference: `order-${id}`, amount: { currency: 'EUR', value } }
      orders.set(id, order)
      return order
    },
    async cardSubmission(order, card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })) {
      return {
        orderId: order.id,
        reference: order.reference,
        amount: order.amount,
        paymentMethod: toPaymentMethod(await encryptCard(card, certificate)),
      }
    },
    idealSubmission: (order) => ({ orderId: order.id, reference: order.reference, amount: order.amount, paymentMethod: { type: 'ideal' } }),
    async post(path, body) {
      const response = await backend.fetch(
        new Request(`http://shop.test${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'vitest' },
          body: JSON.stringify(body),
        }),
        { ip: '127.0.0.1' },
      )
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    },
    async close() {
      backend.poller.stop()
      await store.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/**
 * For a test file: one world for its tests (started before the first, closed after the last), and
 * `shop` for a test shop closed after its test. Call at the top of the file.
 */
export function useWorld(): {
  world(): World
  shop(overrides?: Parameters<typeof startShop>[1]): Promise<TestShop>
} {
  let started: World | undefined
  const shops: TestShop[] = []
  beforeAll(async () => {
    started = await startWorld()
  })
  afterEach(async () => {
    while (shops.length > 0) await shops.pop()!.close()
  })
  afterAll(() => started?.close())
  const world = (): World => {
    if (!started) throw new Error('useWorld: the world starts in beforeAll, before the first test')
    return started
  }
  return {
    world,
    async shop(overrides) {
      const shop = await startShop(world(), overrides)
      shops.push(shop)
      return shop
    },
  }
}

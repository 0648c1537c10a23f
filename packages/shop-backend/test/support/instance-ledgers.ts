/**
 * The ledgers a test of several instances runs on: SQLite (a second instance opens the same file)
 * and a fresh PostgreSQL database (each instance its own pool), with shops started on them.
 */
import { openPostgresStore } from '../../src/postgres/index.js'
import type { LedgerStore } from '../../src/store/ledger-store.js'
import { freshDatabase, postgres } from './postgres.js'
import { startShop, type TestShop, type World } from './shop.js'

export type ShopOverrides = NonNullable<Parameters<typeof startShop>[1]>

/** A test's ledger: shops started on it (`sameLedgerAs`: another instance on the first one's ledger). */
export interface InstanceLedger {
  shop(overrides?: ShopOverrides, sameLedgerAs?: TestShop): Promise<TestShop>
  close(): Promise<void>
}

/** One kind of ledger; `skip` when this run has no PostgreSQL server. */
export interface LedgerKind {
  readonly name: string
  readonly skip: boolean
  open(): Promise<InstanceLedger>
}

/** SQLite and PostgreSQL (a database named after `label`), for the world `t` gives once its file started. */
export function instanceLedgers(t: { readonly world: World }, label: string): readonly LedgerKind[] {
  return [
    {
      name: 'SQLite',
      skip: false,
      open: async () => ({
        shop: (overrides = {}, first) =>
          startShop(t.world, first ? { ...overrides, storePath: first.storePath, secretKey: first.secretKey } : overrides),
        close: async () => {},
      }),
    },
    {
      name: 'PostgreSQL',
      skip: postgres.missing !== undefined,
      async open() {
        const database = await freshDatabase(label)
        const stores: LedgerStore[] = []
        return {
          async shop(overrides = {}, first) {
            const store = await openPostgresStore({ connectionString: database.url })
            stores.push(store)
            return startShop(t.world, { ...overrides, store, ...(first ? { secretKey: first.secretKey } : {}) })
          },
          async close() {
            for (const store of stores) await store.close()
            await database.drop()
          },
        }
      },
    },
  ]
}

/** `run` with one shop on a fresh ledger, both closed after it. */
export async function onOneShop(
  open: () => Promise<InstanceLedger>,
  overrides: ShopOverrides,
  run: (shop: TestShop) => Promise<void>,
): Promise<void> {
  const ledger = await open()
  try {
    const shop = await ledger.shop(overrides)
    try {
      await run(shop)
    } finally {
      await shop.close()
    }
  } finally {
    await ledger.close()
  }
}

/** `run` with two instances on one fresh ledger (no shared lock), each with `both`, the first also with `first`. */
export async function onTwoInstances(
  open: () => Promise<InstanceLedger>,
  overrides: { readonly both?: ShopOverrides; readonly first?: ShopOverrides },
  run: (a: TestShop, b: TestShop) => Promise<void>,
): Promise<void> {
  const ledger = await open()
  try {
    const a = await ledger.shop({ ...overrides.both, ...overrides.first })
    const b = await ledger.shop(overrides.both, a)
    try {
      await run(a, b)
    } finally {
      await b.close()
      await a.close()
    }
  } finally {
    await ledger.close()
  }
}

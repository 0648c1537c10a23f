import type { ShopRow } from './context.js'
import type { Db } from './db.js'

/** A shop as registration stores it: what it signs with and where it is reached. */
export interface NewShopRow {
  readonly shop_id: string
  readonly base_url: string
  readonly basic_key: string
  readonly basic_secret: string
  readonly service_secret: string
  readonly client_key: string
}

/** Registered shops and the merchant account and contractor each is connected to, with their SQL. */
export type ShopStore = ReturnType<typeof createShopStore>

/** Prepares every statement once, when the sandbox starts. */
export function createShopStore(db: Db) {
  const byId = db.prepare('SELECT * FROM shops WHERE shop_id = ?')
  const insert = db.prepare(
    `INSERT INTO shops (shop_id, base_url, basic_key, basic_secret, service_secret, client_key, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  )
  const setAccountAndContractor = db.prepare('UPDATE shops SET account_id = ?, contractor_id = ? WHERE shop_id = ?')
  // Another account's contractor must not stay current.
  const connectAccount = db.prepare(
    'UPDATE shops SET account_id = ?, contractor_id = CASE WHEN account_id = ? THEN contractor_id ELSE NULL END WHERE shop_id = ?',
  )
  const setContractor = db.prepare('UPDATE shops SET contractor_id = ? WHERE shop_id = ?')

  return {
    find(shopId: string): ShopRow | undefined {
      return byId.get(shopId) as ShopRow | undefined
    },
    insert(row: NewShopRow, createdAt: string): void {
      insert.run(row.shop_id, row.base_url, row.basic_key, row.basic_secret, row.service_secret, row.client_key, createdAt)
    },
    setAccountAndContractor(shopId: string, accountId: string, contractorId: string): void {
      setAccountAndContractor.run(accountId, contractorId, shopId)
    },
    /** Connects the shop to a merchant account; its current contractor stays only if of that account. */
    connectAccount(shopId: string, accountId: string): void {
      connectAccount.run(accountId, accountId, shopId)
    },
    setContractor(shopId: string, contractorId: string): void {
      setContractor.run(contractorId, shopId)
    },
  }
}

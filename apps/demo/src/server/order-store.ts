import type { ShopDb } from './db.js'
import type { OrderRow } from './orders.js'

/** The columns an order's payment changes. */
export type OrderChanges = Partial<
  Pick<OrderRow, 'status' | 'result_code' | 'psp_reference' | 'payment_attempt' | 'payment_version' | 'captured' | 'refunded'>
>

/** The shop's orders, with their SQL. */
export type OrderStore = ReturnType<typeof createOrderStore>

/** Prepares every statement once, when the shop starts. */
export function createOrderStore(db: ShopDb) {
  const insert = db.prepare(
    'INSERT INTO orders (reference, currency, value, items, shopper_reference, status, created_at, updated_at) ' +
      "VALUES (?, ?, ?, ?, ?, 'created', ?, ?)",
  )
  const byId = db.prepare('SELECT * FROM orders WHERE id = ?')
  const latest = db.prepare('SELECT * FROM orders ORDER BY id DESC LIMIT 200')
  // An update names only the columns it changes; each set's statement is prepared on first use and kept.
  const updates = new Map<string, ReturnType<ShopDb['prepare']>>()
  const updateOf = (columns: readonly string[]) => {
    const key = columns.join(',')
    let statement = updates.get(key)
    if (!statement) {
      statement = db.prepare(`UPDATE orders SET ${columns.map((c) => `${c} = @${c}`).join(', ')}, updated_at = @updated_at WHERE id = @id`)
      updates.set(key, statement)
    }
    return statement
  }

  return {
    /** A new order in state 'created'; its id. */
    insert(order: Pick<OrderRow, 'reference' | 'currency' | 'value' | 'items' | 'shopper_reference'>, at: string): number {
      const { reference, currency, value, items, shopper_reference } = order
      return Number(insert.run(reference, currency, value, items, shopper_reference, at, at).lastInsertRowid)
    },
    find(id: number): OrderRow | undefined {
      return byId.get(id) as OrderRow | undefined
    },
    /** The 200 newest orders, newest first. */
    latest(): OrderRow[] {
      return latest.all() as OrderRow[]
    },
    update(id: number, changes: OrderChanges, updatedAt: string): void {
      updateOf(Object.keys(changes)).run({ ...changes, id, updated_at: updatedAt })
    },
  }
}

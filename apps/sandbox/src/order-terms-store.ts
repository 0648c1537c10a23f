import type { Db } from './db.js'

/** One line of a payment as the sandbox keeps it: enough to refund it by line. */
export interface KeptLine {
  readonly id: string | null
  readonly quantity: number
  readonly amountIncludingTax: number
  /** How many of it have been refunded. */
  readonly refunded: number
}

/** What a payment asked beyond its amount (table `payment_orders`). */
export interface OrderTermsRow {
  readonly psp_reference: string
  /** JSON of {@link KeptLine}s, or null. */
  readonly line_items: string | null
  readonly capture_delay_hours: number | null
  readonly capture_due_at: string | null
}

/** The statements of `payment_orders`, prepared once when the sandbox starts. */
export type OrderTermsStore = ReturnType<typeof createOrderTermsStore>

export function createOrderTermsStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO payment_orders (psp_reference, line_items, capture_delay_hours, capture_due_at)
     VALUES (@psp_reference, @line_items, @capture_delay_hours, @capture_due_at)`,
  )
  const find = db.prepare('SELECT * FROM payment_orders WHERE psp_reference = ?')
  const setDue = db.prepare('UPDATE payment_orders SET capture_due_at = ? WHERE psp_reference = ?')
  const setLines = db.prepare('UPDATE payment_orders SET line_items = ? WHERE psp_reference = ?')
  const due = db.prepare('SELECT * FROM payment_orders WHERE capture_due_at IS NOT NULL AND capture_due_at <= ? ORDER BY capture_due_at')
  return {
    insert(row: OrderTermsRow): void {
      insert.run(row)
    },
    find(pspReference: string): OrderTermsRow | undefined {
      return find.get(pspReference) as OrderTermsRow | undefined
    },
    /** Sets (an ISO time) or clears (null) when the delayed capture runs. */
    setDue(pspReference: string, dueAt: string | null): void {
      setDue.run(dueAt, pspReference)
    },
    setLines(pspReference: string, lines: readonly KeptLine[]): void {
      setLines.run(JSON.stringify(lines), pspReference)
    },
    /** The delayed captures due by `nowIso`, the earliest first. */
    due(nowIso: string): OrderTermsRow[] {
      return due.all(nowIso) as OrderTermsRow[]
    },
  }
}

/** The kept lines of a payment; empty when it sent none. */
export function keptLinesOf(row: OrderTermsRow | undefined): KeptLine[] {
  return row?.line_items ? (JSON.parse(row.line_items) as KeptLine[]) : []
}

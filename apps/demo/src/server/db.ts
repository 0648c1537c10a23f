import Database from 'better-sqlite3'

export type ShopDb = Database.Database

/**
 * The shop's own records. WAL with synchronous=FULL: an order's pspReference, stored before the
 * browser hears of the payment, survives a crash.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS orders (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  reference TEXT NOT NULL UNIQUE,
  currency TEXT NOT NULL,
  value INTEGER NOT NULL,
  items TEXT NOT NULL,
  status TEXT NOT NULL,
  result_code TEXT,
  psp_reference TEXT UNIQUE,
  -- Counts refused attempts: the idempotency key of a payment is reference and attempt.
  payment_attempt INTEGER NOT NULL DEFAULT 0,
  captured INTEGER NOT NULL DEFAULT 0,
  refunded INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
-- Every change the updated-payments poller applied, once: a repeat would break the primary key.
CREATE TABLE IF NOT EXISTS seen_changes (
  sequence INTEGER PRIMARY KEY,
  psp_reference TEXT NOT NULL,
  status TEXT NOT NULL,
  applied_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
  id TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  encrypted INTEGER NOT NULL DEFAULT 0
);
`

export function openShopDatabase(path: string): ShopDb {
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  db.pragma('busy_timeout = 5000')
  db.exec(SCHEMA)
  // Databases from before idempotency keys get the attempt counter.
  const columns = db.prepare('PRAGMA table_info(orders)').all() as Array<{ name: string }>
  if (!columns.some((c) => c.name === 'payment_attempt'))
    db.exec('ALTER TABLE orders ADD COLUMN payment_attempt INTEGER NOT NULL DEFAULT 0')
  return db
}

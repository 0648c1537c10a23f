import Database from 'better-sqlite3'

export type ShopDb = Database.Database

/**
 * The shop's own records: its orders (the back end's ledger tells it of each payment change), the
 * test shopper's sign-ins, and the renewals the admin asked for. The merchant set-up's progress is
 * the back end's, in its ledger. WAL with synchronous=FULL.
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
  -- The ledger's attempt number the order's state came from: an older attempt's news does not undo a newer one.
  payment_attempt INTEGER NOT NULL DEFAULT 0,
  -- That attempt's version the state came from: a late copy of an older change (another instance's) is ignored.
  payment_version INTEGER NOT NULL DEFAULT 0,
  captured INTEGER NOT NULL DEFAULT 0,
  refunded INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  -- The signed-in shopper's id when the order was made (never the page's): its saved cards are theirs.
  shopper_reference TEXT
);
-- A signed-in shopper's session: the cookie's token is kept only as its SHA-256.
CREATE TABLE IF NOT EXISTS shopper_sessions (
  token_hash TEXT PRIMARY KEY,
  shopper_reference TEXT NOT NULL,
  created_at TEXT NOT NULL
);
-- One renewal order per admin click (its requestId): a repeat of the click charges that order again, never a new one.
CREATE TABLE IF NOT EXISTS renewals (
  request_id TEXT PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders (id),
  renews_order_id INTEGER NOT NULL REFERENCES orders (id)
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
  if (!columns.some((c) => c.name === 'payment_version'))
    db.exec('ALTER TABLE orders ADD COLUMN payment_version INTEGER NOT NULL DEFAULT 0')
  if (!columns.some((c) => c.name === 'shopper_reference')) db.exec('ALTER TABLE orders ADD COLUMN shopper_reference TEXT')
  return db
}

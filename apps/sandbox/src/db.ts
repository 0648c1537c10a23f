import Database from 'better-sqlite3'

export type Db = Database.Database

/**
 * The sandbox's state. WAL with synchronous=FULL: a transaction that returned has reached the disk,
 * so a payment the sandbox acknowledged survives a crash or a kill, not only a clean restart.
 * Card data is never stored whole: a payment keeps the card's brand, last four digits and expiry
 * (MM/YYYY, to store the method once authorised), never the number or the security code.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS shops (
  shop_id TEXT PRIMARY KEY,
  base_url TEXT NOT NULL,
  basic_key TEXT NOT NULL,
  basic_secret TEXT NOT NULL,
  service_secret TEXT NOT NULL,
  store_id TEXT NOT NULL UNIQUE,
  client_key TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS nonces (
  shop_id TEXT NOT NULL,
  nonce TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (shop_id, nonce)
);
-- Every signed request removes expired nonces; without this index that is a scan of ten minutes of them.
CREATE INDEX IF NOT EXISTS nonces_by_expiry ON nonces (expires_at);
CREATE TABLE IF NOT EXISTS payments (
  psp_reference TEXT PRIMARY KEY,
  shop_id TEXT NOT NULL REFERENCES shops(shop_id),
  store_id TEXT NOT NULL,
  status TEXT NOT NULL,
  result_code TEXT NOT NULL,
  currency TEXT NOT NULL,
  value INTEGER NOT NULL,
  captured INTEGER NOT NULL DEFAULT 0,
  refunded INTEGER NOT NULL DEFAULT 0,
  reference TEXT,
  metadata TEXT NOT NULL,
  method_type TEXT NOT NULL,
  card_brand TEXT,
  card_last_four TEXT,
  card_expiry TEXT,
  flow TEXT NOT NULL,
  transaction_id TEXT UNIQUE,
  acs_result TEXT,
  refusal_reason TEXT,
  return_origin TEXT NOT NULL,
  return_url TEXT NOT NULL,
  shopper_reference TEXT,
  store_method INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS modifications (
  psp_reference TEXT PRIMARY KEY,
  payment_psp_reference TEXT NOT NULL REFERENCES payments(psp_reference),
  kind TEXT NOT NULL,
  currency TEXT,
  value INTEGER,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
  sequence INTEGER PRIMARY KEY AUTOINCREMENT,
  shop_id TEXT NOT NULL,
  psp_reference TEXT NOT NULL,
  status TEXT NOT NULL,
  captured INTEGER NOT NULL,
  refunded INTEGER NOT NULL,
  changed_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS stored_methods (
  id TEXT PRIMARY KEY,
  shop_id TEXT NOT NULL,
  store_id TEXT NOT NULL,
  shopper_reference TEXT NOT NULL,
  brand TEXT NOT NULL,
  last_four TEXT NOT NULL,
  expiry_month TEXT NOT NULL,
  expiry_year TEXT NOT NULL,
  disabled INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS erasures (
  psp_reference TEXT PRIMARY KEY,
  requested_at TEXT NOT NULL
);
`

export function openDatabase(path: string): Db {
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  db.exec(SCHEMA)
  return db
}

/**
 * A second connection to the same database for replay nonces: synchronous=NORMAL, so a nonce
 * survives the sandbox being killed (WAL) but is not fsynced on every request, which would block
 * the event loop twice per payment. Losing the last nonces to a power cut reopens, at most, a
 * ten-minute replay window; payments themselves stay on the FULL connection.
 */
export function openNonceConnection(path: string): Db {
  const db = new Database(path)
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 5000')
  return db
}

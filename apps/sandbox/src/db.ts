import Database from 'better-sqlite3'

export type Db = Database.Database

/**
 * The sandbox's state. WAL with synchronous=NORMAL, and no answer leaves before the WAL is synced
 * (off the event loop, @card-jwe/sqlite-group-commit): what the sandbox acknowledged survives a
 * crash, a kill or a power cut, as with FULL, whose sync blocked the event loop at every commit.
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
  client_key TEXT NOT NULL,
  -- Set by PUT backoffice-user (the merchant account) and by PUT contractor or store creation.
  account_id TEXT REFERENCES accounts(account_id),
  contractor_id TEXT REFERENCES contractors(contractor_id),
  created_at TEXT NOT NULL
);
-- A merchant account (backoffice user), known by its verified email; shops connect to it.
CREATE TABLE IF NOT EXISTS accounts (
  account_id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
-- Verification codes sent; also the sandbox's inbox, since no mail leaves the machine.
CREATE TABLE IF NOT EXISTS verification_codes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  shop_id TEXT NOT NULL REFERENCES shops(shop_id),
  email TEXT NOT NULL,
  code TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  used_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS verification_codes_by_email ON verification_codes (email, id);
CREATE TABLE IF NOT EXISTS contractors (
  contractor_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(account_id),
  type TEXT NOT NULL,
  name TEXT NOT NULL,
  country TEXT NOT NULL,
  owner_first_name TEXT NOT NULL,
  owner_last_name TEXT NOT NULL,
  onboarding_status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (account_id, type, name, country)
);
CREATE TABLE IF NOT EXISTS stores (
  store_id TEXT PRIMARY KEY,
  contractor_id TEXT NOT NULL REFERENCES contractors(contractor_id),
  label TEXT NOT NULL,
  shopper_statement TEXT NOT NULL,
  industry_code TEXT NOT NULL,
  phone TEXT NOT NULL,
  currency TEXT NOT NULL,
  address TEXT NOT NULL,
  payment_methods TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS onboarding_links (
  token TEXT PRIMARY KEY,
  shop_id TEXT NOT NULL REFERENCES shops(shop_id),
  contractor_id TEXT NOT NULL REFERENCES contractors(contractor_id),
  expires_at INTEGER NOT NULL,
  used_at TEXT
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
  -- "shop_id:key" of the creating request, its fingerprint and the answer given (see idempotency.ts).
  idempotency_key TEXT UNIQUE,
  idempotency_fingerprint TEXT,
  idempotent_answer TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS modifications (
  psp_reference TEXT PRIMARY KEY,
  payment_psp_reference TEXT NOT NULL REFERENCES payments(psp_reference),
  kind TEXT NOT NULL,
  currency TEXT,
  value INTEGER,
  idempotency_key TEXT UNIQUE,
  idempotency_fingerprint TEXT,
  idempotent_answer TEXT,
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
-- Registrations by idempotency key ("<basic key>:<Idempotency-Key>"): a repeat gets the first answer.
-- A new table, not a new column: folders from schema 3 open as they are.
CREATE TABLE IF NOT EXISTS registrations (
  scope TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  started_at TEXT NOT NULL,
  -- Made once per key: a run again after a failure pushes the same one, so a late first push cannot differ.
  service_secret TEXT,
  -- Set with the shop, in its transaction; NULL while the registration runs.
  answer TEXT
);
-- The first answer under an idempotency key ("<shop id>:<Idempotency-Key>") for the calls other than
-- payments, modifications and registrations: a repeat gets it again. A new table: schema-3 folders open as they are.
CREATE TABLE IF NOT EXISTS kept_answers (
  scope TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  status INTEGER NOT NULL,
  answer TEXT NOT NULL,
  created_at TEXT NOT NULL
);
-- What a payment asked of the order beyond its amount: its lines (with what has been refunded of each)
-- and when its money is taken. A new table: schema-3 folders open as they are. No email or address
-- is kept: the sandbox needs neither after the payment request's rules checked them.
CREATE TABLE IF NOT EXISTS payment_orders (
  psp_reference TEXT PRIMARY KEY REFERENCES payments(psp_reference),
  -- JSON [{id, quantity, amountIncludingTax, refunded}], or NULL without lines.
  line_items TEXT,
  capture_delay_hours INTEGER,
  -- ISO 8601: when the delayed capture runs, set at authorisation; NULL once run, or with none.
  capture_due_at TEXT
);
CREATE INDEX IF NOT EXISTS payment_orders_by_due ON payment_orders (capture_due_at) WHERE capture_due_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS erasures (
  psp_reference TEXT PRIMARY KEY,
  requested_at TEXT NOT NULL
);
`

/** Bumped when a table changes shape; a folder from an older sandbox is refused, not guessed at. */
export const SCHEMA_VERSION = 3

export function openDatabase(path: string): Db {
  const db = new Database(path)
  const version = db.pragma('user_version', { simple: true }) as number
  const hasTables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'shops'").get() as { n: number }
  if (hasTables.n > 0 && version !== SCHEMA_VERSION) {
    db.close()
    throw new Error(
      `${path} was written by an older sandbox (schema ${version}, now ${SCHEMA_VERSION}): move its folder away to start afresh`,
    )
  }
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  db.exec(SCHEMA)
  // A folder whose registrations table predates its secret column (the same day's builds) gets it.
  const columns = db.prepare('PRAGMA table_info(registrations)').all() as Array<{ name: string }>
  if (!columns.some((c) => c.name === 'service_secret')) db.exec('ALTER TABLE registrations ADD COLUMN service_secret TEXT')
  db.pragma(`user_version = ${SCHEMA_VERSION}`)
  return db
}

/**
 * A second connection to the same database for replay nonces: synchronous=NORMAL, so a nonce
 * survives the sandbox being killed (WAL) but is not fsynced on the event loop. Losing the last
 * nonces to a power cut (a request refused before its answer's sync) reopens, at most, a
 * ten-minute replay window. (Its commits share the WAL, so an answer's sync covers them too.)
 */
export function openNonceConnection(path: string): Db {
  const db = new Database(path)
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 5000')
  return db
}

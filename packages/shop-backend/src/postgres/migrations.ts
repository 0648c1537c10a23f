import type { Migration } from '../store/migration-plan.js'
import {
  DISMISSED_MIGRATION,
  LEASES_MIGRATION,
  LINE_ITEMS_MIGRATION,
  ASKED_REST_MIGRATION,
  OPEN_ATTEMPTS_MIGRATION,
  OPEN_MODIFICATIONS_MIGRATION,
  LATER_ATTEMPTS_MIGRATION,
  MODIFICATIONS_BY_ATTEMPT_MIGRATION,
  OUTBOX_KEEPS_ONLY_UNDELIVERED_MIGRATION,
  SENT_AGAIN_MIGRATION,
} from '../store/portable-migrations.js'

/**
 * The ledger's schema on PostgreSQL, numbered like the SQLite one (same tables, same meaning).
 * Timestamps are ISO-8601 text, as the ledger writes them; amounts, sequences and ids are BIGINT.
 */
export const POSTGRES_MIGRATIONS: readonly Migration[] = Object.freeze([
  {
    version: 1,
    name: 'ledger',
    sql: `
CREATE TABLE settings (
  id TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE attempts (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL,
  number INTEGER NOT NULL,
  idempotency_key TEXT NOT NULL UNIQUE,
  state TEXT NOT NULL,
  version INTEGER NOT NULL,
  currency TEXT NOT NULL,
  value BIGINT NOT NULL,
  method_type TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  result_code TEXT,
  psp_reference TEXT UNIQUE,
  answer TEXT,
  details_step INTEGER NOT NULL DEFAULT 0,
  details_key TEXT,
  details_fingerprint TEXT,
  error_code TEXT,
  captured_value BIGINT NOT NULL DEFAULT 0,
  refunded_value BIGINT NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  -- One attempt per number per order: the insert is the lock between instances.
  UNIQUE (order_id, number)
);
CREATE TABLE modifications (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL,
  attempt_id TEXT NOT NULL REFERENCES attempts(id),
  kind TEXT NOT NULL,
  currency TEXT,
  value BIGINT,
  idempotency_key TEXT NOT NULL UNIQUE,
  state TEXT NOT NULL,
  version INTEGER NOT NULL,
  psp_reference TEXT,
  error_code TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE poll_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  cursor BIGINT NOT NULL
);
CREATE TABLE seen_changes (
  sequence BIGINT PRIMARY KEY,
  seen_at TEXT NOT NULL
);
CREATE TABLE poll_problems (
  sequence BIGINT PRIMARY KEY,
  change TEXT NOT NULL,
  reason TEXT NOT NULL,
  tries INTEGER NOT NULL,
  next_try_at TEXT NOT NULL
);
CREATE TABLE outbox (
  id BIGSERIAL PRIMARY KEY,
  order_id TEXT NOT NULL,
  change TEXT NOT NULL,
  tries INTEGER NOT NULL DEFAULT 0,
  next_try_at TEXT NOT NULL,
  delivered_at TEXT
);
CREATE INDEX outbox_due ON outbox (delivered_at, next_try_at);
`,
  },
  LEASES_MIGRATION,
  OUTBOX_KEEPS_ONLY_UNDELIVERED_MIGRATION,
  MODIFICATIONS_BY_ATTEMPT_MIGRATION,
  DISMISSED_MIGRATION,
  LINE_ITEMS_MIGRATION,
  ASKED_REST_MIGRATION,
  OPEN_ATTEMPTS_MIGRATION,
  OPEN_MODIFICATIONS_MIGRATION,
  LATER_ATTEMPTS_MIGRATION,
  SENT_AGAIN_MIGRATION,
])

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

export type { Migration } from '../store/migration-plan.js'

/** The ledger's schema on SQLite, one numbered step at a time (see `migrationPlan`). */
export const MIGRATIONS: readonly Migration[] = Object.freeze([
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
  value INTEGER NOT NULL,
  method_type TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  result_code TEXT,
  psp_reference TEXT UNIQUE,
  answer TEXT,
  details_step INTEGER NOT NULL DEFAULT 0,
  details_key TEXT,
  details_fingerprint TEXT,
  error_code TEXT,
  captured_value INTEGER NOT NULL DEFAULT 0,
  refunded_value INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  -- One attempt per number per order: the insert is the lock between processes.
  UNIQUE (order_id, number)
);
CREATE TABLE modifications (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL,
  attempt_id TEXT NOT NULL REFERENCES attempts(id),
  kind TEXT NOT NULL,
  currency TEXT,
  value INTEGER,
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
  cursor INTEGER NOT NULL
);
CREATE TABLE seen_changes (
  sequence INTEGER PRIMARY KEY,
  seen_at TEXT NOT NULL
);
CREATE TABLE poll_problems (
  sequence INTEGER PRIMARY KEY,
  change TEXT NOT NULL,
  reason TEXT NOT NULL,
  tries INTEGER NOT NULL,
  next_try_at TEXT NOT NULL
);
CREATE TABLE outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
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

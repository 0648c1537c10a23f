import type { Migration } from './migration-plan.js'

// Steps whose SQL is the same on SQLite and PostgreSQL: written once, listed by both stores' MIGRATIONS.

/** Version 2: the poller's lease. */
export const LEASES_MIGRATION: Migration = Object.freeze({
  version: 2,
  name: 'leases',
  sql: `
-- One row per lease (the poller's): taken when free or expired, renewed by its holder.
CREATE TABLE leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
`,
})

/** Version 3: delivered changes leave the outbox; an order's changes are found by order. */
export const OUTBOX_KEEPS_ONLY_UNDELIVERED_MIGRATION: Migration = Object.freeze({
  version: 3,
  name: 'outbox-keeps-only-undelivered',
  sql: `
-- A delivered change is deleted from now on (the attempts keep the history); the ones kept before go too.
DELETE FROM outbox WHERE delivered_at IS NOT NULL;
-- An order's earlier undelivered change, looked up for each due one (it holds the later ones back).
CREATE INDEX outbox_order ON outbox (order_id, id);
`,
})

/** Version 4: an attempt's modifications, found by attempt (what is left to capture or refund). */
export const MODIFICATIONS_BY_ATTEMPT_MIGRATION: Migration = Object.freeze({
  version: 4,
  name: 'modifications-by-attempt',
  sql: `
CREATE INDEX modifications_attempt ON modifications (attempt_id, created_at);
`,
})

/** Version 5: what an operator dismissed, kept for the record (the admin routes). */
export const DISMISSED_MIGRATION: Migration = Object.freeze({
  version: 5,
  name: 'dismissed',
  sql: `
-- A poll problem the operator accepted: moved here from poll_problems, its sequence marked seen.
CREATE TABLE dismissed_problems (
  sequence BIGINT PRIMARY KEY,
  change TEXT NOT NULL,
  reason TEXT NOT NULL,
  tries INTEGER NOT NULL,
  dismissed_at TEXT NOT NULL
);
-- An order change the operator took out of the outbox: moved here, the order's later changes no longer wait.
CREATE TABLE dismissed_deliveries (
  id BIGINT PRIMARY KEY,
  order_id TEXT NOT NULL,
  change TEXT NOT NULL,
  tries INTEGER NOT NULL,
  dismissed_at TEXT NOT NULL
);
`,
})

/** Version 6: the lines a payment was sent with, and the lines a refund gives back (sent again on every retry). */
export const LINE_ITEMS_MIGRATION: Migration = Object.freeze({
  version: 6,
  name: 'line-items',
  sql: `
-- The payment's lineItems as sent (JSON): what a refund by line may name, at the price sent.
ALTER TABLE attempts ADD COLUMN line_items TEXT;
-- A refund's lineItems [{id, quantity}] (JSON), stored with its key before the call: part of its body.
ALTER TABLE modifications ADD COLUMN line_items TEXT;
`,
})

/** Version 7: whether a capture or refund asked for the rest (no amount given): a plain call for the rest repeats it. */
export const ASKED_REST_MIGRATION: Migration = Object.freeze({
  version: 7,
  name: 'asked-rest',
  sql: `
-- 1: called without an amount (the rest); 0: an amount or lines were given; NULL: stored before this was kept.
ALTER TABLE modifications ADD COLUMN asked_rest INTEGER;
`,
})

/** An index of the rows still open, by age: few rows (`row` leaves it with its answer), so a look for the old ones reads only those. */
const openRowsIndex = (version: number, name: string, table: string, row: string, predicate: string): Migration =>
  Object.freeze({
    version,
    name,
    sql: `
-- Few rows (${row} leaves it with its answer), so a look for the old ones reads only those.
CREATE INDEX ${table}_open ON ${table} (updated_at) WHERE ${predicate};
`,
  })

/**
 * The states whose payment outcome is open (no answer yet, or the service confirming): in the index's
 * predicate below and in the queries that use it, word for word, so the planners match the two.
 */
export const OPEN_ATTEMPT_PREDICATE = "state IN ('created', 'pending', 'confirming')"

/** Version 8: payments whose outcome is open, by age (the admin's list and the gauge of those open too long). */
export const OPEN_ATTEMPTS_MIGRATION = openRowsIndex(8, 'open-attempts', 'attempts', 'an attempt', OPEN_ATTEMPT_PREDICATE)

/** A capture, refund or cancel stored and never answered: in the index below and its queries, word for word. */
export const OPEN_MODIFICATION_PREDICATE = "state = 'requested'"

/** Version 9: captures, refunds and cancels left unanswered, by age (the admin's list and their gauge). */
export const OPEN_MODIFICATIONS_MIGRATION = openRowsIndex(
  9,
  'open-modifications',
  'modifications',
  'a modification',
  OPEN_MODIFICATION_PREDICATE,
)

/** Version 10: an order's attempts after its first, by order. An order paid twice has one, so its list reads only those. */
export const LATER_ATTEMPTS_MIGRATION: Migration = Object.freeze({
  version: 10,
  name: 'later-attempts',
  sql: `
-- Few rows (an order's second try and after): the orders paid twice are found without reading every payment.
CREATE INDEX attempts_later ON attempts (order_id) WHERE number > 1;
`,
})

/** Version 11: when a capture, refund or cancel was last sent again, so a dismiss waits for a send still out. */
export const SENT_AGAIN_MIGRATION: Migration = Object.freeze({
  version: 11,
  name: 'sent-again',
  sql: `
-- Set when a stored request is sent again (its first send is at created_at); NULL when never sent again.
ALTER TABLE modifications ADD COLUMN sent_again_at TEXT;
`,
})

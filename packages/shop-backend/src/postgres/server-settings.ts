// What the store needs of the server's settings, checked once at open.
import type pg from 'pg'
import type { Log } from '../telemetry/log.js'

/**
 * Refuses a database whose transactions default to another isolation than READ COMMITTED: the
 * store's compare-and-sets and `ON CONFLICT DO NOTHING` inserts answer "lost" there, where a
 * stricter level throws 40001 instead (sql.ts). Warns when commits are not synchronous: a server
 * crash can then lose a stored idempotency key, and the payment would go again under a new one.
 */
export async function checkServerSettings(pool: pg.Pool, log: Log): Promise<void> {
  const { rows } = await pool.query<{ isolation: string; synchronous: string }>(
    "SELECT current_setting('default_transaction_isolation') AS isolation, current_setting('synchronous_commit') AS synchronous",
  )
  const { isolation, synchronous } = rows[0]!
  if (isolation !== 'read committed')
    throw new Error(
      `ledger database: default_transaction_isolation is '${isolation}', and the store needs 'read committed' ` +
        "(ALTER ROLE <the shop's role> SET default_transaction_isolation = 'read committed')",
    )
  if (synchronous === 'off')
    log(
      'postgres store: synchronous_commit is off, so a server crash can lose a stored idempotency key and the payment ' +
        "would go again under a new one; set synchronous_commit = 'on' for the shop's role",
      'warn',
      { component: 'store', code: 'SYNCHRONOUS_COMMIT_OFF' },
    )
}

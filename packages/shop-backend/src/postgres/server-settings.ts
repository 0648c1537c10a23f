// What the store needs of the server's settings: its own connections' commits, and a check at open.
import type pg from 'pg'
import { errorCodeOf } from '../store/error-code.js'
import type { Log } from '../telemetry/log.js'

/** Sets a connection's commits synchronous where its default is off; answers a row only then. */
const SYNCHRONOUS_COMMITS = "SELECT set_config('synchronous_commit', 'on', false) WHERE current_setting('synchronous_commit') = 'off'"

/**
 * The store's own pool commits synchronously whatever the role's or the database's default: with
 * `synchronous_commit = off` a server crash can lose a stored idempotency key, and the payment would
 * go again under a new one. Each new connection is set before its first query (pg runs a
 * connection's queries in order); only `off` is changed, so `remote_apply` and the like stay. Said
 * once, at the first connection that needed it.
 */
export function commitSynchronously(pool: pg.Pool, log: Log): void {
  let said = false
  pool.on('connect', (client) => {
    client.query(SYNCHRONOUS_COMMITS).then(
      ({ rowCount }) => {
        if (!rowCount || said) return
        said = true
        log("postgres store: synchronous_commit is off for the shop's role; the store's connections set it on", 'info', {
          component: 'store',
          code: 'SYNCHRONOUS_COMMIT_SET',
        })
      },
      (error: unknown) => {
        const code = String(errorCodeOf(error))
        log(`postgres store: a new connection's synchronous_commit could not be set (${code})`, 'error', { component: 'store', code })
      },
    )
  })
}

/**
 * Refuses a database whose transactions default to another isolation than READ COMMITTED: the
 * store's compare-and-sets and `ON CONFLICT DO NOTHING` inserts answer "lost" there, where a
 * stricter level throws 40001 instead (sql.ts). Warns when the shop's own pool commits
 * asynchronously (the store sets only the pools it makes, {@link commitSynchronously}).
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
      "postgres store: synchronous_commit is off on the pool's connections, so a server crash can lose a stored idempotency " +
        "key and the payment would go again under a new one; set synchronous_commit = 'on' for the shop's role",
      'warn',
      { component: 'store', code: 'SYNCHRONOUS_COMMIT_OFF' },
    )
}

// What the store needs of the server's settings: its own connections' commits, and a check at open.
import pg from 'pg'
import { errorCodeOf } from '../store/error-code.js'
import type { Log } from '../telemetry/log.js'

/** Sets a connection's commits synchronous where its default is off; answers a row only then. */
const SYNCHRONOUS_COMMITS = "SELECT set_config('synchronous_commit', 'on', false) WHERE current_setting('synchronous_commit') = 'off'"

/**
 * The store's own pool, whose connections commit synchronously whatever the role's or the database's
 * default: with `synchronous_commit = off` a server crash can lose a stored idempotency key, and the
 * payment would go again under a new one. Each new connection is set before the pool hands it out
 * (`onConnect`); only `off` is changed, so `remote_apply` and the like stay. Said once, at the first
 * connection that needed it.
 */
export function poolCommittingSynchronously(config: pg.PoolConfig, log: Log): pg.Pool {
  let said = false
  const setUp = new WeakSet<pg.ClientBase>()
  const setSynchronous = async (client: pg.ClientBase): Promise<void> => {
    setUp.add(client)
    const { rowCount } = await client.query(SYNCHRONOUS_COMMITS)
    if (!rowCount || said) return
    said = true
    log("postgres store: synchronous_commit is off for the shop's role; the store's connections set it on", 'info', {
      component: 'store',
      code: 'SYNCHRONOUS_COMMIT_SET',
    })
  }
  // A connection that cannot be set is not used: the pool ends it and its caller gets the error.
  const pool = new pg.Pool({ ...config, onConnect: setSynchronous })
  // A pg whose pool has no `onConnect` sets it here: its queue runs the set before the first query.
  pool.on('connect', (client) => {
    if (setUp.has(client)) return
    setSynchronous(client).catch((error: unknown) => {
      const code = String(errorCodeOf(error))
      log(`postgres store: a new connection's synchronous_commit could not be set (${code})`, 'error', { component: 'store', code })
    })
  })
  return pool
}

/**
 * Refuses a database whose transactions default to another isolation than READ COMMITTED: the
 * store's compare-and-sets and `ON CONFLICT DO NOTHING` inserts answer "lost" there, where a
 * stricter level throws 40001 instead (sql.ts). Warns when the shop's own pool commits
 * asynchronously (the store sets only the pools it makes, {@link poolCommittingSynchronously}).
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

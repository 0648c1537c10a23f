/**
 * The least a ledger can do and keep the money rule, for the bench's floor path: a payment's
 * idempotency key stored durably before the call, the service's answer stored durably before the
 * page hears it, in one three-column table; nothing else (no order check, no states, no outbox).
 * Both writes are one upsert, and both stores commit them in groups (groupCommit below): the
 * writes queued while a commit runs go together in the next one, so a busy shop pays one commit for
 * many payments.
 * - sqlite: better-sqlite3 in WAL mode with synchronous=NORMAL, a group in one transaction, then the
 *   WAL fdatasync'd on libuv's pool before any of its writes resolves (as the package's store). A
 *   group every turn, its sync started at once: capped at two groups in flight, the floor measured
 *   0.65 of direct where uncapped measured 0.71 (the waits left the cores idle).
 * - postgres: a group as one statement (`unnest` of arrays) on one connection, one commit, durable by
 *   PostgreSQL's defaults (the bench's server runs with fsync and synchronous_commit on); one group
 *   in flight, the next one gathering meanwhile.
 * `openMinimalLedger(storeName, { dataDir, postgresUrl })` resolves to
 * `{ insertKey(key, orderId), storeAnswer(key, orderId, answerText), close() }`.
 */
import { closeSync, fdatasync, fsyncSync, mkdirSync, openSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

const requireFromPackage = createRequire(new URL('../../packages/shop-backend/package.json', import.meta.url))

/**
 * Writes `[key, orderId, answer]` in groups: `commit(rows)` stores a group durably and resolves
 * to how many rows it wrote; every write of the group settles with it. At most `inFlight` groups
 * commit at once; what is queued meanwhile waits and goes as the next group. (The package's SQLite
 * store has its own, inside the package and bound to its tables; this one serves both stores here.)
 */
function groupCommit(commit, inFlight) {
  let queue = []
  let running = 0
  let scheduled = false
  let idle = Promise.resolve()
  let markIdle = () => {}
  async function flush() {
    scheduled = false
    const items = queue
    queue = []
    running++
    try {
      const written = await commit(items.map((item) => item.row))
      if (written !== items.length) throw new Error(`minimal ledger: ${written} of ${items.length} rows written`)
      for (const item of items) item.resolve()
    } catch (error) {
      for (const item of items) item.reject(error)
    } finally {
      running--
      schedule()
    }
  }
  function schedule() {
    if (scheduled || running >= inFlight) return
    if (queue.length === 0) {
      if (running === 0) markIdle()
      return
    }
    scheduled = true
    // setImmediate: after this turn's I/O callbacks, so the writes they queue join the group.
    setImmediate(flush)
  }
  return {
    write: (row) =>
      new Promise((resolve, reject) => {
        if (queue.length === 0 && running === 0) idle = new Promise((done) => (markIdle = done))
        queue.push({ row, resolve, reject })
        schedule()
      }),
    /** Resolves once nothing is queued or committing. */
    settled: () => idle,
  }
}

function openSqlite({ dataDir }) {
  const Database = requireFromPackage('better-sqlite3')
  mkdirSync(dataDir, { recursive: true })
  const path = join(dataDir, 'minimal-ledger.sqlite')
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.exec('CREATE TABLE IF NOT EXISTS minimal_payments (idempotency_key TEXT PRIMARY KEY, order_id TEXT NOT NULL, answer TEXT)')
  // The -wal file's name on disk too, as the package's store does.
  const folder = openSync(dataDir, 'r')
  fsyncSync(folder)
  closeSync(folder)
  const wal = openSync(`${path}-wal`, 'r')
  const upsert = db.prepare(`INSERT INTO minimal_payments (idempotency_key, order_id, answer) VALUES (?, ?, ?)
    ON CONFLICT (idempotency_key) DO UPDATE SET answer = excluded.answer`)
  const inOneTransaction = db.transaction((rows) => rows.reduce((written, row) => written + upsert.run(...row).changes, 0))
  const group = groupCommit(async (rows) => {
    const written = inOneTransaction.immediate(rows)
    await new Promise((resolve, reject) => fdatasync(wal, (error) => (error ? reject(error) : resolve())))
    return written
  }, Number.POSITIVE_INFINITY)
  return {
    insertKey: (key, orderId) => group.write([key, orderId, null]),
    storeAnswer: (key, orderId, text) => group.write([key, orderId, text]),
    async close() {
      await group.settled()
      closeSync(wal)
      db.close()
    },
  }
}

async function openPostgres({ postgresUrl }) {
  const pg = requireFromPackage('pg')
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 1 })
  pool.on('error', () => {}) // an idle connection that drops is replaced on the next query
  await pool.query('CREATE TABLE IF NOT EXISTS minimal_payments (idempotency_key TEXT PRIMARY KEY, order_id TEXT NOT NULL, answer TEXT)')
  const upsert = {
    name: 'minimal_upsert',
    text: `INSERT INTO minimal_payments (idempotency_key, order_id, answer) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
      ON CONFLICT (idempotency_key) DO UPDATE SET answer = excluded.answer`,
  }
  const column = (rows, i) => rows.map((row) => row[i])
  const group = groupCommit(
    async (rows) => (await pool.query({ ...upsert, values: [column(rows, 0), column(rows, 1), column(rows, 2)] })).rowCount,
    1,
  )
  return {
    insertKey: (key, orderId) => group.write([key, orderId, null]),
    storeAnswer: (key, orderId, text) => group.write([key, orderId, text]),
    async close() {
      await group.settled()
      await pool.end()
    },
  }
}

export function openMinimalLedger(storeName, options) {
  if (storeName === 'sqlite') return openSqlite(options)
  if (storeName === 'postgres') return openPostgres(options)
  throw new Error(`minimal ledger: no store ${storeName}`)
}

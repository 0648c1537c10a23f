/**
 * The least a ledger can do and keep the money rule, for the bench's floor path: a payment's
 * idempotency key stored durably before the call, the service's answer stored durably before the
 * page hears it, one three-column table, nothing else (no order check, no states, no outbox). Each
 * store the cheapest way it knows: the writes of one event-loop turn share one commit.
 * - sqlite: better-sqlite3 in WAL mode with synchronous=NORMAL, the turn's writes in one transaction,
 *   then the WAL fdatasync'd on libuv's pool before any of them resolves (as the package's store).
 * - postgres: the turn's writes as one statement (unnest of arrays), so one commit, durable by
 *   PostgreSQL's defaults (the bench's server runs with fsync and synchronous_commit on).
 * `open(storeName, { dataDir, postgresUrl })` → `{ insertKey(key, orderId), storeAnswer(key, text), close() }`.
 */
import { closeSync, fdatasync, mkdirSync, openSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

const requireFromPackage = createRequire(new URL('../../packages/shop-backend/package.json', import.meta.url))

/** Queues `item`s of one turn; `commit(items)` settles them together (resolves or rejects each). */
function perTurn(commit) {
  let queue = []
  const flush = () => {
    const items = queue
    queue = []
    commit(items).then(
      () => {
        for (const item of items) item.resolve()
      },
      (error) => {
        for (const item of items) item.reject(error)
      },
    )
  }
  return (values) =>
    new Promise((resolve, reject) => {
      if (queue.length === 0) setImmediate(flush)
      queue.push({ values, resolve, reject })
    })
}

function openSqlite({ dataDir }) {
  const Database = requireFromPackage('better-sqlite3')
  mkdirSync(dataDir, { recursive: true })
  const path = join(dataDir, 'minimal-ledger.sqlite')
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.exec('CREATE TABLE IF NOT EXISTS payments (idempotency_key TEXT PRIMARY KEY, order_id TEXT NOT NULL, answer TEXT)')
  const wal = openSync(`${path}-wal`, 'r')
  const insert = db.prepare('INSERT INTO payments (idempotency_key, order_id) VALUES (?, ?)')
  const answer = db.prepare('UPDATE payments SET answer = ? WHERE idempotency_key = ?')
  const inOneTransaction = db.transaction((items) => {
    for (const { values } of items) values.kind === 'key' ? insert.run(values.key, values.orderId) : answer.run(values.text, values.key)
  })
  const write = perTurn((items) => {
    inOneTransaction.immediate(items)
    return new Promise((resolve, reject) => fdatasync(wal, (error) => (error ? reject(error) : resolve())))
  })
  return {
    insertKey: (key, orderId) => write({ kind: 'key', key, orderId }),
    storeAnswer: (key, text) => write({ kind: 'answer', key, text }),
    async close() {
      closeSync(wal)
      db.close()
    },
  }
}

async function openPostgres({ postgresUrl }) {
  const pg = requireFromPackage('pg')
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 10 })
  await pool.query('CREATE TABLE IF NOT EXISTS minimal_payments (idempotency_key TEXT PRIMARY KEY, order_id TEXT NOT NULL, answer TEXT)')
  const statement = (name, text) =>
    perTurn((items) => pool.query({ name, text, values: [items.map((i) => i.values[0]), items.map((i) => i.values[1])] }))
  const insertKeys = statement(
    'minimal_insert',
    'INSERT INTO minimal_payments (idempotency_key, order_id) SELECT * FROM unnest($1::text[], $2::text[])',
  )
  const storeAnswers = statement(
    'minimal_answer',
    `UPDATE minimal_payments m SET answer = u.answer FROM unnest($1::text[], $2::text[]) AS u(idempotency_key, answer)
      WHERE m.idempotency_key = u.idempotency_key`,
  )
  return {
    insertKey: (key, orderId) => insertKeys([key, orderId]),
    storeAnswer: (key, text) => storeAnswers([key, text]),
    close: () => pool.end(),
  }
}

export function openMinimalLedger(storeName, options) {
  if (storeName === 'sqlite') return openSqlite(options)
  if (storeName === 'postgres') return openPostgres(options)
  throw new Error(`minimal ledger: no store ${storeName}`)
}

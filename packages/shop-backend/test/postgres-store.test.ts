import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { openPostgresStore, type PostgresStore } from '../src/postgres/index.js'
import type { AttemptRecord } from '../src/store/ledger-store.js'
import { attempt, change, describeStoreConformance } from './store-conformance.js'
import { startCommitAnswerLoss } from './support/commit-answer-loss.js'
import { freshDatabase, postgres, testPool } from './support/postgres.js'

/** A real server (test/support/postgres-server.ts); skipped only when PostgreSQL is not installed and CI is not set. */
const onServer = describe.skipIf(postgres.missing !== undefined)

/** A test on a store of its own, in a fresh database, with what it logs; closed (again, if the test did) and dropped after. */
const onFreshStore = (name: string, run: (store: PostgresStore, logged: readonly string[]) => Promise<void>) => async () => {
  const database = await freshDatabase(name)
  const logged: string[] = []
  const store = await openPostgresStore({ connectionString: database.url, log: (line) => logged.push(line) })
  // What it logs once open: its warning at open (this server runs with synchronous_commit off) is tested apart.
  logged.length = 0
  try {
    await run(store, logged)
  } finally {
    await store.close()
    await database.drop()
  }
}

/** As {@link onFreshStore}, the store on a pool the test holds too (the shop's own pool), of `connections`. */
const onOwnPool =
  (name: string, run: (store: PostgresStore, pool: pg.Pool) => Promise<void>, connections = 4) =>
  async () => {
    const database = await freshDatabase(name)
    const pool = testPool(database.url, connections)
    const store = await openPostgresStore({ pool })
    try {
      await run(store, pool)
    } finally {
      await store.close()
      await pool.end()
      await database.drop()
    }
  }

/** The text of each query the shop's own pool sends from now on, noted on its way to the server. */
function notingQueries(pool: pg.Pool): string[] {
  const sent: string[] = []
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown
  ;(pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    sent.push(String((args[0] as { text?: string })?.text ?? args[0]))
    return query(...args)
  }
  return sent
}

const at = '2026-01-02T00:00:00.000Z'
const FAR = '2100-01-01T00:00:00.000Z'

/** The one statement a group of writes goes as (ledger-writes.ts), whatever its kinds. */
const GROUP_TEXT = /^WITH inserted AS \(\s*INSERT INTO attempts \(.*\) SELECT \* FROM unnest\(/
const GROUP_STATEMENT = expect.stringMatching(GROUP_TEXT)

onServer('PostgreSQL (a real server, a fresh database per test)', () => {
  describeStoreConformance(`PostgreSQL (pg, ${postgres.version.split(' on ')[0]})`, async () => {
    const database = await freshDatabase('conformance')
    const store = await openPostgresStore({ connectionString: database.url })
    return {
      store,
      second: async () => openPostgresStore({ connectionString: database.url }),
      async cleanup() {
        await store.close()
        await database.drop()
      },
    }
  })

  describe('PostgreSQL store: writes in groups', () => {
    it(
      'attempts asked for at the same time go to the server as one statement',
      onOwnPool('one-statement', async (store, pool) => {
        const sent = notingQueries(pool)
        const attempts = Array.from({ length: 10 }, (_, i) => attempt(`s${i}`, 1))
        expect(await Promise.all(attempts.map((a) => store.insertAttempt(a)))).toEqual(attempts.map(() => true))
        expect(sent).toEqual([GROUP_STATEMENT])
        expect(await store.listAttempts('s7')).toHaveLength(1)
      }),
    )

    it(
      'inserts, compare-and-sets and delivered marks asked for at the same time share one statement and one commit',
      onOwnPool('mixed', async (store, pool) => {
        const [paid, next] = [attempt('m1', 1), attempt('m2', 1)]
        for (const a of [paid, next]) await store.insertAttempt(a)
        const queued = await store.compareAndSet(paid.id, 1, { state: 'authorised', updatedAt: at }, change(paid, 'authorised'))
        const sent = notingQueries(pool)
        const fresh = [attempt('m3', 1), attempt('m4', 1)]
        const [stored, repeated, written, , lost] = await Promise.all([
          ...fresh.map((a) => store.insertAttempt(a)),
          store.compareAndSet(next.id, 1, { state: 'pending', updatedAt: at }, change(next, 'pending')),
          store.markDelivered(queued!.queued!.entry.id),
          store.compareAndSet(paid.id, 1, { state: 'refused', updatedAt: at }), // stale: paid is at version 2
        ])
        expect(sent).toEqual([GROUP_STATEMENT])
        expect([stored, repeated]).toEqual([true, true])
        expect(written).toMatchObject({ id: next.id, state: 'pending', version: 2, queued: { behindEarlier: false } })
        expect(lost).toBeUndefined()
        expect((await store.dueOutbox(FAR, 10)).map((e) => e.change.orderId)).toEqual(['m2'])
        expect(await Promise.all(fresh.map((a) => store.findAttempt(a.id)))).toEqual(fresh)
      }),
    )

    it('a group committed but its answer lost: each write sent again finds its own, and answers as made, not as lost', async () => {
      const database = await freshDatabase('answer-lost')
      const proxy = await startCommitAnswerLoss(database.url)
      const logged: string[] = []
      const store = await openPostgresStore({ connectionString: proxy.url, log: (line) => logged.push(line) })
      try {
        const [a, b] = [attempt('lost1', 1), attempt('lost2', 1)]
        proxy.loseAnswerOf('WITH inserted AS')
        expect(await Promise.all([a, b].map((x) => store.insertAttempt(x)))).toEqual([true, true])
        expect(proxy.lost()).toBe(1)
        // A claim on each, as the details call and a new try take theirs: the group's answer lost again.
        proxy.loseAnswerOf('WITH inserted AS')
        const claims = await Promise.all(
          [a, b].map((x) => store.compareAndSet(x.id, 1, { detailsKey: `claim-${x.id}`, updatedAt: at }, change(x, 'created'))),
        )
        expect(proxy.lost()).toBe(2)
        expect(claims).toEqual([
          expect.objectContaining({ id: a.id, version: 2, detailsKey: `claim-${a.id}` }),
          expect.objectContaining({ id: b.id, version: 2, detailsKey: `claim-${b.id}` }),
        ])
        // Their changes were queued in the lost commit, once each.
        expect((await store.dueOutbox(FAR, 10)).map((e) => e.change.orderId).sort()).toEqual(['lost1', 'lost2'])
        // Another writer's move is still a lost race for a write sent again.
        proxy.loseAnswerOf('WITH inserted AS')
        const [stale, fresh] = await Promise.all([
          store.compareAndSet(a.id, 1, { state: 'refused', updatedAt: at }),
          store.compareAndSet(b.id, 2, { state: 'refused', updatedAt: at }),
        ])
        expect(stale).toBeUndefined()
        expect(fresh).toMatchObject({ id: b.id, version: 3, state: 'refused' })
        expect(logged.filter((line) => line.includes('each is sent again alone'))).toHaveLength(3)
      } finally {
        await store.close()
        await proxy.close()
        await database.drop()
      }
    })

    it(
      "a change queued beside the delivered mark of its order's earlier change is not held behind it",
      onFreshStore('mark-and-change', async (store) => {
        const [first, second] = [attempt('same', 1), attempt('same', 2)]
        for (const a of [first, second]) await store.insertAttempt(a)
        const earlier = await store.compareAndSet(first.id, 1, { state: 'refused', updatedAt: at }, change(first, 'refused'))
        const [, later] = await Promise.all([
          store.markDelivered(earlier!.queued!.entry.id),
          store.compareAndSet(second.id, 1, { state: 'pending', updatedAt: at }, change(second, 'pending')),
        ])
        // The statement's outbox read still sees the row it deletes: without leaving it out, this said true.
        expect(later?.queued?.behindEarlier).toBe(false)
        expect((await store.dueOutbox(FAR, 10)).map((e) => e.change.state)).toEqual(['pending'])
      }),
    )

    it(
      'a group whose every part matches nothing answers each caller so: lost inserts, a stale update, a mark of no row',
      onFreshStore('nothing', async (store) => {
        const a = attempt('n', 1)
        await store.insertAttempt(a)
        const answers = await Promise.all([
          store.insertAttempt({ ...attempt('n', 1), id: 'other-id' }), // the same (order, number)
          store.insertAttempt({ ...attempt('n2', 1), idempotencyKey: a.idempotencyKey }),
          store.compareAndSet(a.id, 5, { state: 'pending', updatedAt: at }, change(a, 'pending')),
          store.compareAndSet('missing', 1, { state: 'pending', updatedAt: at }),
          store.markDelivered(123456),
        ])
        expect(answers).toEqual([false, false, undefined, undefined, undefined])
        expect(await store.dueOutbox(FAR, 10)).toEqual([])
      }),
    )

    it(
      "a change stays behind its order's earlier undelivered change when another change of the order is marked beside it",
      onFreshStore('behind', async (store) => {
        const [a1, a2, a3] = [attempt('b', 1), attempt('b', 2), attempt('b', 3)]
        for (const a of [a1, a2, a3]) await store.insertAttempt(a)
        const e1 = await store.compareAndSet(a1.id, 1, { state: 'refused', updatedAt: at }, change(a1, 'refused'))
        const e2 = await store.compareAndSet(a2.id, 1, { state: 'refused', updatedAt: at }, change(a2, 'refused'))
        const [, e3] = await Promise.all([
          store.markDelivered(e1!.queued!.entry.id),
          store.compareAndSet(a3.id, 1, { state: 'pending', updatedAt: at }, change(a3, 'pending')),
        ])
        expect([e2?.queued?.behindEarlier, e3?.queued?.behindEarlier]).toEqual([true, true])
        expect((await store.dueOutbox(FAR, 10)).map((e) => e.id)).toEqual([e2!.queued!.entry.id, e3!.queued!.entry.id])
      }),
    )

    it(
      'a refused group of mixed kinds is sent again one write a statement: each caller gets its own answer',
      onFreshStore('refused-mixed', async (store, logged) => {
        const [a, b, c] = [attempt('r', 1), attempt('s', 1), attempt('t', 1)]
        for (const x of [a, b]) await store.insertAttempt(x)
        const queued = await store.compareAndSet(a.id, 1, { state: 'pending', updatedAt: at }, change(a, 'pending'))
        // Two updates to one pspReference: the group's statement breaks the unique index (23505).
        const results = await Promise.allSettled([
          store.insertAttempt(c),
          store.compareAndSet(a.id, 2, { state: 'authorised', pspReference: 'P1', updatedAt: at }, change(a, 'authorised')),
          store.compareAndSet(b.id, 1, { state: 'authorised', pspReference: 'P1', updatedAt: at }, change(b, 'authorised')),
          store.markDelivered(queued!.queued!.entry.id),
        ])
        expect(logged).toEqual(['postgres store: a group of 4 ledger writes failed (23505); each is sent again alone'])
        expect([results[0], results[3]]).toEqual([
          { status: 'fulfilled', value: true },
          { status: 'fulfilled', value: undefined },
        ])
        // Sent again side by side, one of the two updates wins the pspReference; the other alone fails.
        const won = results.slice(1, 3).flatMap((r, i) => (r.status === 'fulfilled' ? [['r', 's'][i]] : []))
        expect(won).toHaveLength(1)
        expect(await store.findAttempt(c.id)).toEqual(c)
        expect((await store.dueOutbox(FAR, 10)).map((e) => e.change.orderId)).toEqual(won)
      }),
    )

    it(
      'close waits for the delivered marks asked for before it',
      onOwnPool('close-marks', async (store, pool) => {
        const a = attempt('c', 1)
        await store.insertAttempt(a)
        const queued = await store.compareAndSet(a.id, 1, { state: 'pending', updatedAt: at }, change(a, 'pending'))
        const mark = store.markDelivered(queued!.queued!.entry.id)
        await store.close()
        await mark
        expect((await pool.query('SELECT order_id FROM outbox')).rows).toEqual([])
      }),
    )

    it(
      'the group statement is prepared again, under a new name, each time the attempts this process stored double',
      onOwnPool('replan', async (store, pool) => {
        const sent = notingQueries(pool)
        const insertGroup = (from: number) =>
          Promise.all(Array.from({ length: 250 }, (_, i) => store.insertAttempt(attempt(`p${from + i}`, 1))))
        for (let from = 0; from < 2000; from += 250) await insertGroup(from)
        await Promise.all([store.insertAttempt(attempt('after', 1)), store.insertAttempt(attempt('after', 2))])
        const marks = sent.map((text) => /-- planned again after (\d+) attempts$/.exec(text)?.[1] ?? 'first')
        // 250 a statement: the 5th (stored 1000 before it) and the 9th (2000) are new statements.
        expect(marks).toEqual(['first', 'first', 'first', 'first', '1000', '1000', '1000', '1000', '2000'])
        expect(await store.listAttempts('after')).toHaveLength(2)
      }),
    )

    it(
      'the group statement keeps one plan on a connection instead of being planned again for every group',
      onOwnPool(
        'generic-plan',
        async (store, pool) => {
          // A ledger of some size, analysed: on a few rows a plan for the values costs about what the generic one does.
          await pool.query(
            `INSERT INTO attempts (id, order_id, number, idempotency_key, state, version, currency, value, method_type,
               fingerprint, psp_reference, created_at, updated_at)
             SELECT 'old' || n, 'old' || n, 1, 'old-key-' || n, 'authorised', 2, 'EUR', 2800, 'scheme', 'f', 'OLDPSP' || n, $1, $1
             FROM generate_series(1, 20000) AS n`,
            [at],
          )
          await pool.query('ANALYZE attempts')
          const sent = notingQueries(pool)
          let earlier: AttemptRecord[] = []
          let queued: number[] = []
          for (let round = 0; round < 12; round++) {
            // Three new attempts, the last round's three answered (each queues a change), its marks:
            // small groups of every kind, as a payment path under load makes them.
            const fresh = [0, 1, 2].map((i) => attempt(`gp${round}-${i}`, 1))
            const [, updated] = await Promise.all([
              Promise.all(fresh.map((a) => store.insertAttempt(a))),
              Promise.all(
                earlier.map((a) => store.compareAndSet(a.id, a.version, { state: 'authorised', updatedAt: at }, change(a, 'authorised'))),
              ),
              Promise.all(queued.map((id) => store.markDelivered(id))),
            ])
            queued = updated.map((written) => written!.queued!.entry.id)
            earlier = fresh
          }
          const groups = sent.filter((text) => GROUP_TEXT.test(text)).length
          expect(groups).toBeGreaterThanOrEqual(12)
          const prepared = await pool.query<{ statement: string; generic_plans: string; custom_plans: string }>(
            'SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements',
          )
          const plans = prepared.rows
            .filter((row) => GROUP_TEXT.test(row.statement))
            .map(({ custom_plans, generic_plans }) => ({ custom_plans, generic_plans }))
          // PostgreSQL plans a prepared statement for its values five times, then keeps the generic
          // plan unless a plan for the values looked cheaper; before, every group was planned again.
          expect(plans).toEqual([{ custom_plans: '5', generic_plans: String(groups - 5) }])
        },
        // One connection: every group and the read of its prepared statements on the same session.
        1,
      ),
    )

    it(
      'an attempt PostgreSQL refuses fails alone: the others asked for at the same time are stored, and the log says so',
      onFreshStore('groups', async (store, logged) => {
        const good = Array.from({ length: 5 }, (_, i) => attempt(`g${i}`, 1))
        const refused = attempt('bad', 1, { number: 1.5 }) // not an integer: the whole group's statement fails
        const results = await Promise.allSettled([...good, refused].map((a) => store.insertAttempt(a)))
        expect(results.slice(0, 5)).toEqual(good.map(() => ({ status: 'fulfilled', value: true })))
        expect(results[5]?.status).toBe('rejected')
        for (const a of good) expect((await store.listAttempts(a.orderId)).map((r) => r.id)).toEqual([a.id])
        expect(await store.listAttempts('bad')).toEqual([])
        // The SQLSTATE (22P02: not an integer), not the message: a message may quote a row's values.
        expect(logged).toEqual(['postgres store: a group of 6 ledger writes failed (22P02); each is sent again alone'])
      }),
    )

    it(
      'close answers the inserts already asked for before it ends the pool',
      onFreshStore('close', async (store) => {
        const asked = Array.from({ length: 8 }, (_, i) => store.insertAttempt(attempt(`c${i}`, 1)))
        await store.close()
        expect(await Promise.all(asked)).toEqual(asked.map(() => true))
      }),
    )

    it(
      'compare-and-sets asked for at the same time go as one statement, each written as its patch says',
      onOwnPool('cas-statement', async (store, pool) => {
        const attempts = Array.from({ length: 8 }, (_, i) =>
          attempt(`u${i}`, 1, { pspReference: `PSP-U${i}`, detailsKey: `k-${i}`, answer: { resultCode: 'Pending' } }),
        )
        for (const a of attempts) await store.insertAttempt(a)
        const sent = notingQueries(pool)
        const answer = { resultCode: 'Authorised', pspReference: 'PSP-U0', nested: { amount: 1 } }
        const results = await Promise.all([
          store.compareAndSet(
            'u0:1',
            1,
            { state: 'authorised', resultCode: 'Authorised', answer, updatedAt: at },
            change(attempts[0]!, 'authorised'),
          ),
          store.compareAndSet('u1:1', 1, { detailsKey: null, pspReference: null, answer: null, detailsStep: 2, updatedAt: at }),
          store.compareAndSet('u2:1', 1, { capturedValue: 2800, refundedValue: 100, errorCode: 'X', updatedAt: at }),
          // Stale: loses, queues nothing.
          store.compareAndSet('u3:1', 7, { state: 'refused', updatedAt: at }, change(attempts[3]!, 'refused')),
          ...attempts.slice(4).map((a) => store.compareAndSet(a.id, 1, { state: 'pending', updatedAt: at }, change(a, 'pending'))),
        ])
        expect(sent).toEqual([GROUP_STATEMENT])
        expect(results.map((r) => r?.version)).toEqual([2, 2, 2, undefined, 2, 2, 2, 2])
        const stored = await Promise.all(attempts.map((a) => store.findAttempt(a.id)))
        expect(stored[0]).toEqual({ ...attempts[0], state: 'authorised', resultCode: 'Authorised', answer, version: 2, updatedAt: at })
        const cleared = { detailsKey: undefined, pspReference: undefined, answer: undefined }
        expect(stored[1]).toEqual({ ...attempts[1], ...cleared, detailsStep: 2, version: 2, updatedAt: at })
        expect(stored[2]).toEqual({ ...attempts[2], capturedValue: 2800, refundedValue: 100, errorCode: 'X', version: 2, updatedAt: at })
        expect(stored[3]).toEqual(attempts[3])
        const written = results.map((r) => r && { ...r, queued: undefined })
        expect(written.map((r, i) => r && { ...stored[i], queued: undefined })).toEqual(written)
        // Queued as one compare-and-set queues it: the change's order, due at the patch's time.
        const { rows } = await pool.query("SELECT order_id, change::json->>'state' AS state, next_try_at FROM outbox ORDER BY order_id")
        expect(rows).toEqual([
          { order_id: 'u0', state: 'authorised', next_try_at: at },
          ...['u4', 'u5', 'u6', 'u7'].map((order_id) => ({ order_id, state: 'pending', next_try_at: at })),
        ])
        // Each compare-and-set that queued says as which entry; none of these orders had an earlier one waiting.
        const entries = await store.dueOutbox(at, 10)
        expect(results.map((r) => r?.queued)).toEqual(
          ['u0', null, null, null, 'u4', 'u5', 'u6', 'u7'].map((orderId) =>
            orderId ? { entry: entries.find((e) => e.change.orderId === orderId), behindEarlier: false } : undefined,
          ),
        )
      }),
    )

    it(
      "changes of one order asked for at the same time reach the outbox in the order asked, not in the group's id order",
      onFreshStore('cas-order', async (store) => {
        const [first, second] = [attempt('same', 1), attempt('same', 2)]
        for (const a of [first, second]) await store.insertAttempt(a)
        // Asked for second then first: one group would write them in id order (first's change first).
        await Promise.all([
          store.compareAndSet(second.id, 1, { state: 'pending', updatedAt: at }, change(second, 'pending')),
          store.compareAndSet(first.id, 1, { state: 'refused', updatedAt: at }, change(first, 'refused')),
        ])
        const queued = await store.dueOutbox(FAR, 20)
        expect(queued.map((e) => `${e.change.attempt} ${e.change.state}`)).toEqual(['2 pending', '1 refused'])
      }),
    )

    it(
      'a compare-and-set PostgreSQL refuses fails alone: the others asked for at the same time are written, and the log says so',
      onFreshStore('cas-groups', async (store, logged) => {
        const attempts = Array.from({ length: 6 }, (_, i) => attempt(`r${i}`, 1))
        for (const a of attempts) await store.insertAttempt(a)
        const results = await Promise.allSettled(
          attempts.map((a, i) =>
            // r5's step is not an integer: the whole group's statement fails.
            store.compareAndSet(a.id, 1, { state: 'pending', detailsStep: i === 5 ? 1.5 : 1, updatedAt: at }, change(a, 'pending')),
          ),
        )
        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected'])
        expect((await Promise.all(attempts.map((a) => store.findAttempt(a.id)))).map((a) => a?.version)).toEqual([2, 2, 2, 2, 2, 1])
        const queued = await store.dueOutbox(FAR, 20)
        expect(queued.map((e) => e.change.orderId).sort()).toEqual(['r0', 'r1', 'r2', 'r3', 'r4'])
        expect(logged).toEqual(['postgres store: a group of 6 ledger writes failed (22P02); each is sent again alone'])
      }),
    )

    it(
      'close answers the compare-and-sets already asked for before it ends the pool',
      onFreshStore('cas-close', async (store) => {
        const attempts = Array.from({ length: 6 }, (_, i) => attempt(`cc${i}`, 1))
        for (const a of attempts) await store.insertAttempt(a)
        const asked = attempts.map((a) => store.compareAndSet(a.id, 1, { state: 'pending', updatedAt: at }))
        await store.close()
        expect((await Promise.all(asked)).map((r) => r?.version)).toEqual(attempts.map(() => 2))
      }),
    )
  })

  describe('PostgreSQL store: its pool', () => {
    it(
      'an idle connection the server ends is dropped and logged by its SQLSTATE; the store goes on',
      onFreshStore('idle-drop', async (store, logged) => {
        // Two connections in the pool, both idle after this.
        await Promise.all([store.pool.query('SELECT pg_sleep(0.05)'), store.pool.query('SELECT pg_sleep(0.05)')])
        const { rows } = await store.pool.query<{ ended: boolean }>(
          'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        )
        expect(rows.filter((r) => r.ended).length).toBeGreaterThan(0)
        await expect.poll(() => logged).toContain('postgres store: the pool dropped an idle connection (57P01)')
        expect(await store.insertAttempt(attempt('after-drop', 1))).toBe(true)
      }),
    )
  })

  describe('PostgreSQL store: the admin beside the poller and the deliverer', () => {
    /** Resolves once `waiting` of the database's sessions wait for a lock. */
    const lockWaits = (pool: pg.Pool, waiting: number) =>
      expect
        .poll(async () => {
          const { rows } = await pool.query<{ n: string }>(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          )
          return Number(rows[0]!.n)
        })
        .toBe(waiting)

    it(
      'a problem dismissed while a poll applies it: the apply stands, the dismissal finds it resolved, nothing kept as dismissed',
      onOwnPool('dismiss-problem-race', async (store, pool) => {
        const a = attempt('o1', 1)
        await store.insertAttempt(a)
        const record = { sequence: 5, pspReference: 'PSP5', status: 'authorised' }
        await store.applyChangesAndCursor({
          applied: [],
          skipped: [],
          problems: [{ sequence: 5, change: record, reason: 'STORE_ERROR', nextTryAt: at }],
          resolved: [],
          at,
        })
        // The poll's compare-and-set waits on a row another session holds: its sequence is marked, its problem open.
        const holder = await pool.connect()
        await holder.query('BEGIN')
        await holder.query('SELECT id FROM attempts WHERE id = $1 FOR UPDATE', [a.id])
        const applied = { sequence: 5, record, attemptId: a.id, expectedVersion: 1, patch: { state: 'authorised' as const, updatedAt: at } }
        const poll = store.applyChangesAndCursor({ applied: [applied], skipped: [], problems: [], resolved: [], at })
        await lockWaits(pool, 1)
        const dismissal = store.dismissProblem(5, at)
        await lockWaits(pool, 2)
        await holder.query('COMMIT')
        holder.release()
        expect(await poll).toEqual({ conflicts: [], repeats: [] })
        expect(await dismissal).toBe(false)
        expect(await store.findAttempt(a.id)).toMatchObject({ state: 'authorised', version: 2 })
        expect(await store.listProblems()).toEqual([])
        expect((await store.listDismissed(10)).problems).toEqual([])
      }),
    )

    it(
      'a delivery dismissed while the deliverer marks it delivered: found delivered, not kept as dismissed too',
      onOwnPool('dismiss-delivery-race', async (store, pool) => {
        const a = attempt('o1', 1)
        await store.insertAttempt(a)
        await store.compareAndSet(a.id, 1, { state: 'authorised', updatedAt: at }, change(a, 'authorised'))
        const [entry] = await store.dueOutbox(FAR, 10)
        // The deliverer's mark waits on the entry another session holds; the admin's dismissal comes after it.
        const holder = await pool.connect()
        await holder.query('BEGIN')
        await holder.query('SELECT id FROM outbox WHERE id = $1 FOR UPDATE', [entry!.id])
        const delivered = store.markDelivered(entry!.id)
        await lockWaits(pool, 1)
        const dismissal = store.dismissDelivery(entry!.id, at)
        await lockWaits(pool, 2)
        await holder.query('COMMIT')
        holder.release()
        await delivered
        expect(await dismissal).toBe(false)
        expect(await store.listOutbox(10)).toEqual([])
        expect((await store.listDismissed(10)).deliveries).toEqual([])
      }),
    )
  })

  describe("PostgreSQL store: the server's settings", () => {
    /** A fresh database with `setting` as its default for every session, and a store opened on it. */
    async function openWith(setting: string) {
      const database = await freshDatabase('settings')
      const admin = testPool(database.url, 1)
      await admin.query(`ALTER DATABASE "${new URL(database.url).pathname.slice(1)}" SET ${setting}`)
      await admin.end()
      const logged: string[] = []
      const opened = openPostgresStore({ connectionString: database.url, log: (line) => logged.push(line) })
      return { opened, logged, database }
    }

    it('refuses a database whose transactions default to repeatable read, naming the setting and the level it needs', async () => {
      const { opened, database } = await openWith("default_transaction_isolation = 'repeatable read'")
      try {
        await expect(opened).rejects.toThrow(/default_transaction_isolation is 'repeatable read', and the store needs 'read committed'/)
      } finally {
        await database.drop()
      }
    })

    it("commits synchronously on a database whose default is off: its own pool's connections are set on, and said so once", async () => {
      for (const [synchronous, said] of [
        ['off', true],
        ['on', false],
      ] as const) {
        const { opened, logged, database } = await openWith(`synchronous_commit = ${synchronous}`)
        const store = await opened
        try {
          // Every connection of the pool, the one open used and new ones alike.
          const clients = await Promise.all(Array.from({ length: 3 }, () => store.pool.connect()))
          try {
            for (const client of clients)
              expect((await client.query('SHOW synchronous_commit')).rows).toEqual([{ synchronous_commit: 'on' }])
          } finally {
            for (const client of clients) client.release()
          }
          await store.insertAttempt(attempt('sync-1', 1))
          expect(logged.filter((line) => line.includes('synchronous_commit is off')).length).toBe(said ? 1 : 0)
          expect(logged.some((line) => line.includes("the store's connections set it on"))).toBe(said)
        } finally {
          await store.close()
          await database.drop()
        }
      }
    })

    it('hands a new connection out only once it is set: no query is sent on a connection while another runs there', async () => {
      const { database } = await openWith('synchronous_commit = off')
      // Queries asked of a connection while one still runs there: pg queues them (deprecated), pg 9 refuses them.
      const running = new WeakMap<object, number>()
      let sentWhileBusy = 0
      const query = pg.Client.prototype.query
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        if ((running.get(this) ?? 0) > 0) sentWhileBusy++
        running.set(this, (running.get(this) ?? 0) + 1)
        const done = () => void running.set(this, (running.get(this) ?? 1) - 1)
        const callback = args.at(-1)
        if (typeof callback === 'function')
          args[args.length - 1] = (...answer: unknown[]) => {
            done()
            callback(...answer)
          }
        const result = (query as (...a: unknown[]) => unknown).apply(this, args)
        if (typeof callback !== 'function') void Promise.resolve(result).then(done, done)
        return result
      } as typeof query
      try {
        const store = await openPostgresStore({ connectionString: database.url, max: 4 })
        const clients = await Promise.all([1, 2, 3, 4].map(() => store.pool.connect()))
        const shown = await Promise.all(clients.map((client) => client.query('SHOW synchronous_commit')))
        for (const client of clients) client.release()
        await store.close()
        expect(shown.map((answer) => answer.rows[0].synchronous_commit)).toEqual(['on', 'on', 'on', 'on'])
        expect(sentWhileBusy).toBe(0)
      } finally {
        pg.Client.prototype.query = query
        await database.drop()
      }
    })

    it("leaves a shop's own pool as it is, and warns at open when its commits are not synchronous", async () => {
      const { opened, database } = await openWith('synchronous_commit = off')
      await (await opened).close()
      const pool = testPool(database.url, 2)
      const logged: string[] = []
      const store = await openPostgresStore({ pool, log: (line) => logged.push(line) })
      try {
        expect((await pool.query('SHOW synchronous_commit')).rows).toEqual([{ synchronous_commit: 'off' }])
        expect(logged.some((line) => line.includes("synchronous_commit is off on the pool's connections"))).toBe(true)
      } finally {
        await store.close()
        await pool.end()
        await database.drop()
      }
    })
  })
})

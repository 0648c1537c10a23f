import { describe, expect, it } from 'vitest'
import type { AttemptRecord, LedgerStore, ModificationRecord, OrderChange } from '../src/index.js'

/** A store for one test, and how to throw it away. */
export interface StoreUnderTest {
  readonly store: LedgerStore
  /** A second handle on the same data (another process), when the store has one. */
  readonly second?: () => Promise<LedgerStore>
  cleanup(): Promise<void>
}

const at = '2026-01-01T00:00:00.000Z'

/** Orders o1 and o2, each with its first attempt stored. */
async function twoOrdersAttempted(store: LedgerStore): Promise<[AttemptRecord, AttemptRecord]> {
  const pair: [AttemptRecord, AttemptRecord] = [attempt('o1', 1), attempt('o2', 1)]
  for (const a of pair) await store.insertAttempt(a)
  return pair
}

export function attempt(orderId: string, number: number, extra: Partial<AttemptRecord> = {}): AttemptRecord {
  return {
    id: `${orderId}:${number}`,
    orderId,
    number,
    idempotencyKey: `key-${orderId}-${number}-${Math.random().toString(36).slice(2)}`,
    state: 'created',
    version: 1,
    amount: { currency: 'EUR', value: 2800 },
    methodType: 'scheme',
    fingerprint: 'f'.repeat(64),
    detailsStep: 0,
    capturedValue: 0,
    refundedValue: 0,
    createdAt: at,
    updatedAt: at,
    ...extra,
  }
}

/** The change a move of `a` to `state` queues. */
export const change = (a: AttemptRecord, state: OrderChange['state']): OrderChange => ({
  orderId: a.orderId,
  attempt: a.number,
  state,
  previousState: a.state,
  amount: a.amount,
  capturedValue: 0,
  refundedValue: 0,
  version: a.version + 1,
})

const feedRecord = (sequence: number) => ({ sequence, pspReference: `PSP${sequence}`, status: 'authorised' })

/**
 * The behaviour every {@link LedgerStore} must have: the ledger's guarantees rest on it. Run it
 * against a store factory: `describeStoreConformance('sqlite', async () => ({ store, cleanup }))`.
 */
export function describeStoreConformance(name: string, open: () => Promise<StoreUnderTest>): void {
  const withStore = (run: (t: StoreUnderTest) => Promise<void>) => async () => {
    const t = await open()
    try {
      await run(t)
    } finally {
      await t.cleanup()
    }
  }

  describe(`LedgerStore conformance: ${name}`, () => {
    it(
      'keeps settings and overwrites them',
      withStore(async ({ store }) => {
        expect(await store.getSetting('shop_id')).toBeUndefined()
        await store.putSetting('shop_id', 'a')
        await store.putSetting('shop_id', 'b')
        expect(await store.getSetting('shop_id')).toBe('b')
        // A compare-and-set: written only over the value expected.
        expect(await store.replaceSetting('shop_id', 'a', 'c')).toBe(false)
        expect(await store.getSetting('shop_id')).toBe('b')
        expect(await store.replaceSetting('shop_id', 'b', 'c')).toBe(true)
        expect(await store.getSetting('shop_id')).toBe('c')
        expect(await store.replaceSetting('no_such_setting', '', 'x')).toBe(false)
      }),
    )

    it(
      'writes several settings as one: all of them, or none when one value is refused',
      withStore(async ({ store }) => {
        await store.putSettings({ contractor_id: 'c1', chosen_store_id: 's1', onboarding_status: 'onboarded' })
        expect(await store.getSetting('contractor_id')).toBe('c1')
        expect(await store.getSetting('chosen_store_id')).toBe('s1')
        expect(await store.getSetting('onboarding_status')).toBe('onboarded')
        // A value the table refuses (settings.value is NOT NULL), after two it would take: none is written.
        const refused = { contractor_id: 'c2', chosen_store_id: 's2', onboarding_status: null as unknown as string }
        await expect(store.putSettings(refused)).rejects.toThrow()
        expect(await store.getSetting('contractor_id')).toBe('c1')
        expect(await store.getSetting('chosen_store_id')).toBe('s1')
        expect(await store.getSetting('onboarding_status')).toBe('onboarded')
      }),
    )

    it(
      'says whether it holds any attempt: none when new, one once stored',
      withStore(async ({ store }) => {
        expect(await store.holdsAttempts()).toBe(false)
        await store.putSetting('shop_id', 'a')
        expect(await store.holdsAttempts()).toBe(false)
        expect(await store.insertAttempt(attempt('o1', 1))).toBe(true)
        expect(await store.insertAttempt(attempt('o1', 2))).toBe(true)
        expect(await store.holdsAttempts()).toBe(true)
      }),
    )

    it(
      'inserts an attempt once per order and number: of two racing inserts exactly one wins',
      withStore(async ({ store }) => {
        const results = await Promise.all([store.insertAttempt(attempt('o1', 1)), store.insertAttempt(attempt('o1', 1))])
        expect(results.filter(Boolean)).toHaveLength(1)
        expect(await store.insertAttempt(attempt('o1', 2))).toBe(true)
        expect(await store.insertAttempt(attempt('o2', 1))).toBe(true)
        expect((await store.listAttempts('o1')).map((a) => a.number)).toEqual([1, 2])
      }),
    )

    it(
      'answers each of many inserts made at once on its own: every new attempt stored, every repeat of an id or a key refused',
      withStore(async ({ store }) => {
        const fresh = Array.from({ length: 12 }, (_, i) => attempt(`o${i}`, 1))
        const sameId = attempt('o3', 1) // another key, the same order and number
        const sameKey = attempt('o5', 2, { idempotencyKey: fresh[5]!.idempotencyKey })
        const results = await Promise.all([...fresh, sameId, sameKey].map((a) => store.insertAttempt(a)))
        expect(results).toEqual([...fresh.map(() => true), false, false])
        expect((await store.listAttempts('o3')).map((a) => a.idempotencyKey)).toEqual([fresh[3]!.idempotencyKey])
        expect(await store.listAttempts('o5')).toHaveLength(1)
      }),
    )

    it(
      'keeps the lines a payment was sent with and the lines a refund gives back, as stored, beside those without',
      withStore(async ({ store }) => {
        const lineItems = [
          { id: 'tea', description: 'Tea', quantity: 2, amountIncludingTax: 700, taxPercentage: 900 },
          { quantity: 1, amountIncludingTax: 1400 },
        ]
        // Made at once, so a store that groups inserts sends them in one statement.
        const [withLines, without] = [attempt('o1', 1, { lineItems }), attempt('o2', 1)]
        expect(await Promise.all([store.insertAttempt(withLines), store.insertAttempt(without)])).toEqual([true, true])
        expect((await store.findAttempt(withLines.id))?.lineItems).toEqual(lineItems)
        expect((await store.findAttempt(without.id))?.lineItems).toBeUndefined()
        const refund: ModificationRecord = {
          id: 'refund-by-line-1',
          orderId: 'o1',
          attemptId: withLines.id,
          kind: 'refund',
          amount: { currency: 'EUR', value: 700 },
          lineItems: [{ id: 'tea', quantity: 1 }],
          idempotencyKey: 'key-refund-by-line-1',
          state: 'requested',
          version: 1,
          createdAt: at,
          updatedAt: at,
        }
        expect(await store.insertModification(refund)).toBe(true)
        const received = await store.updateModification(refund.id, 1, { state: 'received', pspReference: 'MOD1', updatedAt: at })
        expect(received?.lineItems).toEqual([{ id: 'tea', quantity: 1 }])
        expect((await store.listModifications(withLines.id)).map((m) => m.lineItems)).toEqual([[{ id: 'tea', quantity: 1 }]])
      }),
    )

    it(
      'round-trips every field of an attempt',
      withStore(async ({ store }) => {
        const full = attempt('o1', 1, {
          resultCode: 'RedirectShopper',
          pspReference: 'PSP1',
          answer: { resultCode: 'RedirectShopper', action: { type: 'redirect' } },
          detailsKey: 'k-d1',
          detailsFingerprint: 'd'.repeat(64),
          errorCode: 'X',
          state: 'action_required',
        })
        await store.insertAttempt(full)
        expect(await store.findAttempt(full.id)).toEqual(full)
        expect(await store.findAttemptByPspReference('PSP1')).toEqual(full)
        expect(await store.findAttemptByPspReference('PSP2')).toBeUndefined()
      }),
    )

    it(
      'compare-and-set writes only on the expected version, bumps it, and queues the change in the same write',
      withStore(async ({ store }) => {
        const a = attempt('o1', 1)
        await store.insertAttempt(a)
        const written = await store.compareAndSet(
          a.id,
          1,
          { state: 'authorised', pspReference: 'PSP1', updatedAt: at },
          change(a, 'authorised'),
        )
        expect(written).toMatchObject({ state: 'authorised', version: 2, pspReference: 'PSP1' })
        // A stale writer loses and queues nothing.
        expect(await store.compareAndSet(a.id, 1, { state: 'refused', updatedAt: at }, change(a, 'refused'))).toBeUndefined()
        expect(await store.findAttempt(a.id)).toMatchObject({ state: 'authorised', version: 2 })
        const due = await store.dueOutbox('2100-01-01T00:00:00.000Z', 10)
        expect(due.map((e) => e.change.state)).toEqual(['authorised'])
      }),
    )

    it(
      'compare-and-set writes the method and fingerprint of a resend whose answer the attempt now holds',
      withStore(async ({ store }) => {
        const a = attempt('o1', 1)
        await store.insertAttempt(a)
        const patch = { methodType: 'ideal', fingerprint: 'f-ideal', state: 'action_required', updatedAt: at } as const
        expect(await store.compareAndSet(a.id, 1, patch)).toMatchObject({ methodType: 'ideal', fingerprint: 'f-ideal', version: 2 })
        expect(await store.findAttempt(a.id)).toMatchObject({
          methodType: 'ideal',
          fingerprint: 'f-ideal',
          idempotencyKey: a.idempotencyKey,
        })
      }),
    )

    it(
      'compare-and-set clears optional fields with null',
      withStore(async ({ store }) => {
        const a = attempt('o1', 1, { detailsKey: 'k-d1' })
        await store.insertAttempt(a)
        expect(await store.compareAndSet(a.id, 1, { detailsKey: null, updatedAt: at })).toMatchObject({ version: 2 })
        expect((await store.findAttempt(a.id))!.detailsKey).toBeUndefined()
      }),
    )

    it(
      'of two racing compare-and-sets on one version exactly one wins',
      withStore(async ({ store }) => {
        const a = attempt('o1', 1)
        await store.insertAttempt(a)
        const results = await Promise.all([
          store.compareAndSet(a.id, 1, { state: 'pending', updatedAt: at }),
          store.compareAndSet(a.id, 1, { state: 'authorised', updatedAt: at }),
        ])
        expect(results.filter(Boolean)).toHaveLength(1)
      }),
    )

    it(
      'answers each of many compare-and-sets made at once on its own: each on its version, one change queued per write',
      withStore(async ({ store }) => {
        const attempts = Array.from({ length: 10 }, (_, i) => attempt(`o${i}`, 1))
        for (const a of attempts) await store.insertAttempt(a)
        const moves = attempts.map((a, i) => {
          const state = i % 2 === 0 ? 'authorised' : 'refused'
          return store.compareAndSet(a.id, i === 4 ? 2 : 1, { state, updatedAt: at }, change(a, state))
        })
        // The same attempt again on the same version, asked for after the rest: the write asked for first wins.
        const again = store.compareAndSet('o1:1', 1, { state: 'authorised', updatedAt: at }, change(attempts[1]!, 'authorised'))
        const results = await Promise.all([...moves, again])
        expect(results.slice(0, 10).map((r) => r?.state)).toEqual(
          attempts.map((_, i) => (i === 4 ? undefined : i % 2 ? 'refused' : 'authorised')),
        )
        expect(results[10]).toBeUndefined()
        const stored = await Promise.all(attempts.map((a) => store.findAttempt(a.id)))
        expect(stored.map((a) => a?.version)).toEqual(attempts.map((_, i) => (i === 4 ? 1 : 2)))
        const due = await store.dueOutbox('2100-01-01T00:00:00.000Z', 20)
        expect(due.map((e) => `${e.change.orderId} ${e.change.state}`).sort()).toEqual(
          stored
            .filter((a) => a?.version === 2)
            .map((a) => `${a!.orderId} ${a!.state}`)
            .sort(),
        )
      }),
    )

    it(
      'of two compare-and-sets of one attempt asked for at once, the first asked wins, whatever was asked for between them',
      withStore(async ({ store }) => {
        const [a, b] = [attempt('o1', 1), attempt('o1', 2)]
        for (const x of [a, b]) await store.insertAttempt(x)
        const results = await Promise.all([
          store.compareAndSet(a.id, 1, { state: 'pending', updatedAt: at }, change(a, 'pending')),
          // Held back by the change of the same order before it (on a store that writes in groups).
          store.compareAndSet(b.id, 1, { state: 'pending', updatedAt: at }, change(b, 'pending')),
          // Asked for last: must not overtake the write of b before it.
          store.compareAndSet(b.id, 1, { state: 'refused', updatedAt: at }),
        ])
        expect(results.map((r) => r?.state)).toEqual(['pending', 'pending', undefined])
        expect(await store.findAttempt(b.id)).toMatchObject({ state: 'pending', version: 2 })
      }),
    )

    it(
      'modifications: inserted once per request id, updated by compare-and-set',
      withStore(async ({ store }) => {
        await store.insertAttempt(attempt('o1', 1))
        const m: ModificationRecord = {
          id: 'req-00001',
          orderId: 'o1',
          attemptId: 'o1:1',
          kind: 'capture',
          amount: { currency: 'EUR', value: 100 },
          idempotencyKey: 'mkey-0001',
          state: 'requested',
          version: 1,
          createdAt: at,
          updatedAt: at,
        }
        expect(await store.insertModification(m)).toBe(true)
        expect(await store.insertModification({ ...m, idempotencyKey: 'mkey-0002' })).toBe(false)
        expect(await store.findModification('req-00001')).toEqual(m)
        expect(await store.updateModification('req-00001', 1, { state: 'received', pspReference: 'MOD1', updatedAt: at })).toMatchObject({
          state: 'received',
          version: 2,
          pspReference: 'MOD1',
        })
        expect(await store.updateModification('req-00001', 1, { state: 'refused', updatedAt: at })).toBeUndefined()
        // An attempt's modifications, oldest first; another attempt's are not among them.
        await store.insertAttempt(attempt('o2', 1))
        const later = { ...m, id: 'req-00002', idempotencyKey: 'mkey-0003', createdAt: '2026-01-02T00:00:01.000Z' }
        await store.insertModification(later)
        await store.insertModification({ ...m, id: 'req-00003', idempotencyKey: 'mkey-0004', orderId: 'o2', attemptId: 'o2:1' })
        expect((await store.listModifications('o1:1')).map((x) => [x.id, x.state])).toEqual([
          ['req-00001', 'received'],
          ['req-00002', 'requested'],
        ])
        expect(await store.listModifications('o9:1')).toEqual([])
        // Whether it asked for the rest is kept, either way (a plain call for the rest repeats only such a one).
        const rest = { ...m, id: 'req-00004', idempotencyKey: 'mkey-0005', askedForRest: true }
        const given = { ...m, id: 'req-00005', idempotencyKey: 'mkey-0006', askedForRest: false }
        await store.insertModification(rest)
        await store.insertModification(given)
        expect([await store.findModification(rest.id), await store.findModification(given.id)]).toEqual([rest, given])
      }),
    )

    it(
      'applies a poll batch in one go: changes, seen sequences, problems and the cursor',
      withStore(async ({ store }) => {
        const [a, b] = await twoOrdersAttempted(store)
        expect(await store.readCursor()).toBe(0)
        const result = await store.applyChangesAndCursor({
          cursor: 7,
          applied: [
            {
              sequence: 5,
              record: feedRecord(5),
              attemptId: a.id,
              expectedVersion: 1,
              patch: { state: 'authorised', updatedAt: at },
              change: change(a, 'authorised'),
            },
            // A lost compare-and-set: kept as a CONFLICT problem, the rest still commits.
            { sequence: 6, record: feedRecord(6), attemptId: b.id, expectedVersion: 9, patch: { state: 'authorised', updatedAt: at } },
          ],
          skipped: [4],
          problems: [{ sequence: 7, change: feedRecord(7), reason: 'UNKNOWN_ORDER', nextTryAt: at }],
          resolved: [],
          at,
        })
        expect(result).toEqual({ conflicts: [6], repeats: [] })
        expect(await store.readCursor()).toBe(7)
        expect(await store.findAttempt(a.id)).toMatchObject({ state: 'authorised', version: 2 })
        expect((await store.listProblems()).map((p) => [p.sequence, p.reason, p.tries])).toEqual([
          [6, 'CONFLICT', 1],
          [7, 'UNKNOWN_ORDER', 1],
        ])
        expect((await store.listProblems()).find((p) => p.sequence === 6)!.change).toEqual(feedRecord(6))
        expect((await store.dueOutbox('2100-01-01T00:00:00.000Z', 10)).map((e) => e.change.orderId)).toEqual(['o1'])
      }),
    )

    it(
      'never applies a seen sequence twice, and never moves the cursor back',
      withStore(async ({ store }) => {
        const a = attempt('o1', 1)
        await store.insertAttempt(a)
        const batch = {
          cursor: 5,
          applied: [
            { sequence: 5, record: feedRecord(5), attemptId: a.id, expectedVersion: 1, patch: { capturedValue: 100, updatedAt: at } },
          ],
          skipped: [],
          problems: [],
          resolved: [],
          at,
        }
        await store.applyChangesAndCursor(batch)
        const again = await store.applyChangesAndCursor({ ...batch, cursor: 3, applied: [{ ...batch.applied[0]!, expectedVersion: 2 }] })
        expect(again).toEqual({ conflicts: [], repeats: [5] })
        expect(await store.findAttempt(a.id)).toMatchObject({ version: 2 })
        expect(await store.readCursor()).toBe(5)
      }),
    )

    it(
      "forgets sequences seen over 30 days before a batch, behind the cursor, and keeps the rest and every problem's",
      withStore(async ({ store }) => {
        const a = attempt('o1', 1)
        await store.insertAttempt(a)
        const batch = (when: string, part: Partial<Parameters<typeof store.applyChangesAndCursor>[0]>) =>
          store.applyChangesAndCursor({ applied: [], skipped: [], problems: [], resolved: [], at: when, ...part })
        const first = '2026-01-01T00:00:00.000Z'
        await batch(first, { cursor: 3, problems: [{ sequence: 3, change: feedRecord(3), reason: 'UNKNOWN_ORDER', nextTryAt: first }] })
        expect(await store.dismissProblem(3, first)).toBe(true) // seen, and kept for good
        await batch(first, { cursor: 4, skipped: [2, 4] })
        // 2 recorded as a problem after its mark (a retry racing a dismissal): kept while open.
        await batch(first, { problems: [{ sequence: 2, change: feedRecord(2), reason: 'UNKNOWN_ORDER', nextTryAt: first }] })
        await batch(first, { skipped: [9] }) // seen ahead of the cursor (no cursor move)
        await batch('2026-01-05T00:00:00.000Z', { cursor: 5, skipped: [5] })
        await batch('2026-02-01T00:00:00.000Z', { cursor: 6, skipped: [6] }) // 31 days after the first marks, 27 after 5's
        // Each sequence again: a forgotten one applies, a kept one is a repeat.
        const capture = (sequence: number) => ({
          sequence,
          record: feedRecord(sequence),
          attemptId: a.id,
          expectedVersion: 1,
          patch: { capturedValue: 100 * sequence, updatedAt: at },
        })
        const again = await batch('2026-02-01T00:00:01.000Z', { applied: [2, 3, 4, 5, 6, 9].map(capture) })
        expect(again).toEqual({ conflicts: [], repeats: [2, 3, 5, 6, 9] })
        expect(await store.findAttempt(a.id)).toMatchObject({ version: 2, capturedValue: 400 })
      }),
    )

    it(
      'a record whose compare-and-set lost is not marked seen: a later batch on the right version applies it',
      withStore(async ({ store }) => {
        const a = attempt('o1', 1)
        await store.insertAttempt(a)
        const applied = {
          sequence: 8,
          record: feedRecord(8),
          attemptId: a.id,
          expectedVersion: 9,
          patch: { capturedValue: 100, updatedAt: at },
        }
        const batch = { applied: [applied], skipped: [], problems: [], resolved: [], at }
        expect(await store.applyChangesAndCursor(batch)).toEqual({ conflicts: [8], repeats: [] })
        expect((await store.listProblems()).map((p) => [p.sequence, p.reason])).toEqual([[8, 'CONFLICT']])
        const again = await store.applyChangesAndCursor({ ...batch, applied: [{ ...applied, expectedVersion: 1 }] })
        expect(again).toEqual({ conflicts: [], repeats: [] })
        expect(await store.findAttempt(a.id)).toMatchObject({ capturedValue: 100, version: 2 })
        expect(await store.listProblems()).toEqual([])
      }),
    )

    it(
      "counts a problem's tries, lists only due ones when asked, and forgets it once resolved",
      withStore(async ({ store }) => {
        const problem = { sequence: 9, change: feedRecord(9), reason: 'UNKNOWN_ORDER', nextTryAt: '2026-01-01T00:00:10.000Z' }
        await store.applyChangesAndCursor({ applied: [], skipped: [], problems: [problem], resolved: [], at })
        await store.applyChangesAndCursor({
          applied: [],
          skipped: [],
          problems: [{ ...problem, nextTryAt: '2026-01-01T00:01:00.000Z' }],
          resolved: [],
          at,
        })
        expect(await store.listProblems()).toEqual([{ ...problem, tries: 2, nextTryAt: '2026-01-01T00:01:00.000Z' }])
        expect(await store.listProblems('2026-01-01T00:00:30.000Z')).toEqual([])
        expect(await store.listProblems('2026-01-01T00:01:00.000Z')).toHaveLength(1)
        // A problem batch without a cursor leaves the cursor alone.
        expect(await store.readCursor()).toBe(0)
        await store.applyChangesAndCursor({ applied: [], skipped: [], problems: [], resolved: [9], at })
        expect(await store.listProblems()).toEqual([])
      }),
    )

    it(
      'outbox: due entries oldest first; a failed delivery waits until its next try; a delivered one is gone',
      withStore(async ({ store }) => {
        const a = attempt('o1', 1)
        await store.insertAttempt(a)
        await store.compareAndSet(a.id, 1, { state: 'pending', updatedAt: at }, change(a, 'pending'))
        await store.compareAndSet(a.id, 2, { state: 'authorised', updatedAt: at }, change({ ...a, state: 'pending' }, 'authorised'))
        const due = await store.dueOutbox(at, 10)
        expect(due.map((e) => [e.change.state, e.tries])).toEqual([
          ['pending', 0],
          ['authorised', 0],
        ])
        await store.markDeliveryFailed(due[0]!.id, '2026-01-01T01:00:00.000Z')
        await store.markDelivered(due[1]!.id)
        expect(await store.dueOutbox(at, 10)).toEqual([])
        expect((await store.dueOutbox('2026-01-01T01:00:00.000Z', 10)).map((e) => [e.change.state, e.tries])).toEqual([['pending', 1]])
      }),
    )

    it(
      "outbox: an order's later change waits while an earlier one waits for its next try; other orders' changes do not",
      withStore(async ({ store }) => {
        const [a, b] = await twoOrdersAttempted(store)
        await store.compareAndSet(a.id, 1, { state: 'pending', updatedAt: at }, change(a, 'pending'))
        const [failed] = await store.dueOutbox(at, 10)
        await store.markDeliveryFailed(failed!.id, '2026-01-01T01:00:00.000Z')
        await store.compareAndSet(a.id, 2, { state: 'authorised', updatedAt: at }, change({ ...a, state: 'pending' }, 'authorised'))
        await store.compareAndSet(b.id, 1, { state: 'authorised', updatedAt: at }, change(b, 'authorised'))
        expect((await store.dueOutbox(at, 10)).map((e) => [e.change.orderId, e.change.state])).toEqual([['o2', 'authorised']])
        expect((await store.dueOutbox('2026-01-01T01:00:00.000Z', 10)).map((e) => [e.change.orderId, e.change.state])).toEqual([
          ['o1', 'pending'],
          ['o1', 'authorised'],
          ['o2', 'authorised'],
        ])
      }),
    )

    it(
      'a compare-and-set that queues a change says as which entry, and whether an earlier change of its order is undelivered',
      withStore(async ({ store }) => {
        const [a, b] = await twoOrdersAttempted(store)
        const pending = await store.compareAndSet(a.id, 1, { state: 'pending', updatedAt: at }, change(a, 'pending'))
        const authorised = await store.compareAndSet(
          a.id,
          2,
          { state: 'authorised', updatedAt: at },
          change({ ...a, state: 'pending' }, 'authorised'),
        )
        const other = await store.compareAndSet(b.id, 1, { state: 'refused', updatedAt: at }, change(b, 'refused'))
        const quiet = await store.compareAndSet(b.id, 2, { errorCode: 'X', updatedAt: at })
        const [first, second, third] = await store.dueOutbox(at, 10)
        expect(pending?.queued).toEqual({ entry: first, behindEarlier: false })
        // o1's pending change is still in the outbox: the authorised one must wait its turn.
        expect(authorised?.queued).toEqual({ entry: second, behindEarlier: true })
        expect(other?.queued).toEqual({ entry: third, behindEarlier: false })
        expect(quiet?.queued).toBeUndefined()
        // Once o1's changes are delivered, its next one is first in line again.
        await store.markDelivered(first!.id)
        await store.markDelivered(second!.id)
        const refunded = await store.compareAndSet(
          a.id,
          3,
          { refundedValue: 100, updatedAt: at },
          change({ ...a, state: 'authorised', version: 3 }, 'authorised'),
        )
        expect(refunded?.queued?.behindEarlier).toBe(false)
        expect(refunded?.queued?.entry).toEqual((await store.dueOutbox(at, 10)).find((e) => e.change.orderId === 'o1'))
      }),
    )

    it(
      'the admin: lists what the outbox holds with its tries, delivers a waiting change now (its earlier ones with it), dismisses one',
      withStore(async ({ store }) => {
        const [a, b] = await twoOrdersAttempted(store)
        await store.compareAndSet(a.id, 1, { state: 'pending', updatedAt: at }, change(a, 'pending'))
        const [failed] = await store.dueOutbox(at, 10)
        await store.markDeliveryFailed(failed!.id, '2026-01-01T01:00:00.000Z')
        await store.compareAndSet(a.id, 2, { state: 'authorised', updatedAt: at }, change({ ...a, state: 'pending' }, 'authorised'))
        await store.compareAndSet(b.id, 1, { state: 'refused', updatedAt: at }, change(b, 'refused'))
        const waiting = await store.listOutbox(10)
        expect(waiting.map((e) => [e.change.orderId, e.change.state, e.tries, e.nextTryAt])).toEqual([
          ['o1', 'pending', 1, '2026-01-01T01:00:00.000Z'],
          ['o1', 'authorised', 0, at],
          ['o2', 'refused', 0, at],
        ])
        expect(await store.listOutbox(1)).toEqual(waiting.slice(0, 1))
        expect(await store.listOutbox(10, waiting[1]!.id)).toEqual(waiting.slice(1))
        // Retrying o1's later change makes its earlier one due too: the shop still hears them in order.
        const later = '2026-01-01T00:00:30.000Z'
        expect(await store.retryDelivery(waiting[1]!.id, later)).toBe(true)
        expect((await store.dueOutbox(later, 10)).map((e) => [e.change.orderId, e.change.state, e.tries])).toEqual([
          ['o1', 'pending', 1],
          ['o1', 'authorised', 0],
          ['o2', 'refused', 0],
        ])
        // Dismissed: kept for the record, gone from the outbox, and the order's next change no longer waits for it.
        await store.markDeliveryFailed(waiting[0]!.id, '2026-01-01T02:00:00.000Z')
        expect((await store.dueOutbox(later, 10)).map((e) => e.change.orderId)).toEqual(['o2'])
        expect(await store.dismissDelivery(waiting[0]!.id, later)).toBe(true)
        expect((await store.dueOutbox(later, 10)).map((e) => [e.change.orderId, e.change.state])).toEqual([
          ['o1', 'authorised'],
          ['o2', 'refused'],
        ])
        expect((await store.listDismissed(10)).deliveries).toEqual([
          { id: waiting[0]!.id, change: waiting[0]!.change, tries: 2, dismissedAt: later },
        ])
        // Gone or delivered: nothing to retry or dismiss.
        expect(await store.dismissDelivery(waiting[0]!.id, later)).toBe(false)
        expect(await store.retryDelivery(waiting[0]!.id, later)).toBe(false)
        await store.markDelivered(waiting[2]!.id)
        expect(await store.dismissDelivery(waiting[2]!.id, later)).toBe(false)
        expect((await store.listDismissed(10)).deliveries).toHaveLength(1)
      }),
    )

    it(
      'the admin: a dismissed problem is kept for the record, no longer listed as open, and never applied by a later batch',
      withStore(async ({ store }) => {
        const a = attempt('o1', 1)
        await store.insertAttempt(a)
        const problems = [5, 6].map((sequence) => ({ sequence, change: feedRecord(sequence), reason: 'UNKNOWN_ORDER', nextTryAt: at }))
        await store.applyChangesAndCursor({ applied: [], skipped: [], problems, resolved: [], at })
        await store.applyChangesAndCursor({ applied: [], skipped: [], problems: problems.slice(0, 1), resolved: [], at })
        const later = '2026-01-01T00:05:00.000Z'
        expect(await store.dismissProblem(5, later)).toBe(true)
        expect((await store.listProblems()).map((p) => p.sequence)).toEqual([6])
        expect(await store.listProblems(later)).toHaveLength(1)
        expect((await store.listDismissed(10)).problems).toEqual([
          { sequence: 5, change: feedRecord(5), reason: 'UNKNOWN_ORDER', tries: 2, dismissedAt: later },
        ])
        expect(await store.dismissProblem(5, later)).toBe(false)
        expect(await store.dismissProblem(99, later)).toBe(false)
        // Its sequence counts as seen: the same record applied later (a feed read again) is a repeat, nothing moves.
        const applied = {
          sequence: 5,
          record: feedRecord(5),
          attemptId: a.id,
          expectedVersion: 1,
          patch: { state: 'authorised' as const, updatedAt: at },
        }
        expect(await store.applyChangesAndCursor({ applied: [applied], skipped: [], problems: [], resolved: [], at })).toEqual({
          conflicts: [],
          repeats: [5],
        })
        expect(await store.findAttempt(a.id)).toMatchObject({ state: 'created', version: 1 })
        expect(await store.dismissProblem(6, '2026-01-01T00:06:00.000Z')).toBe(true)
        expect((await store.listDismissed(1)).problems.map((p) => p.sequence)).toEqual([6])
        expect(await store.listProblems()).toEqual([])
      }),
    )

    it(
      'a problem open again after its sequence was marked (a retry committing after the poll applied it) can be dismissed',
      withStore(async ({ store }) => {
        const batch = (part: Partial<Parameters<typeof store.applyChangesAndCursor>[0]>) =>
          store.applyChangesAndCursor({ applied: [], skipped: [], problems: [], resolved: [], at, ...part })
        await batch({ skipped: [8] })
        await batch({ problems: [{ sequence: 8, change: feedRecord(8), reason: 'STORE_ERROR', nextTryAt: at }] })
        expect((await store.listProblems()).map((p) => p.sequence)).toEqual([8])
        const later = '2026-01-01T00:05:00.000Z'
        expect(await store.dismissProblem(8, later)).toBe(true)
        expect(await store.listProblems()).toEqual([])
        expect((await store.listDismissed(10)).problems.map((p) => p.sequence)).toEqual([8])
        // Still seen: the record read again is a repeat, applied to nothing.
        const o8 = attempt('o8', 1)
        await store.insertAttempt(o8)
        const again = {
          sequence: 8,
          record: feedRecord(8),
          attemptId: o8.id,
          expectedVersion: 1,
          patch: { state: 'authorised' as const, updatedAt: at },
        }
        expect(await batch({ applied: [again] })).toEqual({ conflicts: [], repeats: [8] })
        expect(await store.findAttempt(o8.id)).toMatchObject({ state: 'created', version: 1 })
        expect(await store.dismissProblem(8, later)).toBe(false)
        // A sequence that never was a problem: nothing kept, and no mark left behind by the refusal.
        expect(await store.dismissProblem(12, later)).toBe(false)
        expect((await store.listDismissed(10)).problems.map((p) => p.sequence)).toEqual([8])
        const a = attempt('o12', 1)
        await store.insertAttempt(a)
        const applied = {
          sequence: 12,
          record: feedRecord(12),
          attemptId: a.id,
          expectedVersion: 1,
          patch: { state: 'authorised' as const, updatedAt: at },
        }
        expect(await batch({ applied: [applied] })).toEqual({ conflicts: [], repeats: [] })
        expect(await store.findAttempt(a.id)).toMatchObject({ state: 'authorised', version: 2 })
      }),
    )

    it(
      'a dismissed problem stays dismissed when a retry planned before the dismissal fails again',
      withStore(async ({ store }) => {
        const problem = { sequence: 7, change: feedRecord(7), reason: 'UNKNOWN_ORDER', nextTryAt: at }
        await store.applyChangesAndCursor({ applied: [], skipped: [], problems: [problem], resolved: [], at, cursor: 7 })
        const later = '2026-01-01T00:05:00.000Z'
        expect(await store.dismissProblem(7, later)).toBe(true)
        // The poller's retry read the problem before the dismissal and commits after it, failing again.
        const retried = { ...problem, nextTryAt: '2026-01-01T00:10:00.000Z' }
        await store.applyChangesAndCursor({ applied: [], skipped: [], problems: [retried], resolved: [], at: later })
        expect(await store.listProblems()).toEqual([])
        expect((await store.listDismissed(10)).problems).toEqual([
          { sequence: 7, change: feedRecord(7), reason: 'UNKNOWN_ORDER', tries: 1, dismissedAt: later },
        ])
      }),
    )

    it(
      'a lease: taken when free, refused while another holds it, renewed by its holder, taken over once expired, released',
      withStore(async ({ store }) => {
        const t0 = '2026-01-01T00:00:00.000Z'
        expect(await store.acquireLease('poller', 'a', 1_000, t0)).toEqual({
          acquired: true,
          lease: { name: 'poller', holder: 'a', expiresAt: '2026-01-01T00:00:01.000Z' },
        })
        expect(await store.acquireLease('poller', 'b', 1_000, '2026-01-01T00:00:00.500Z')).toEqual({
          acquired: false,
          lease: { name: 'poller', holder: 'a', expiresAt: '2026-01-01T00:00:01.000Z' },
        })
        // Renewed by its holder: its time starts again.
        expect(await store.acquireLease('poller', 'a', 1_000, '2026-01-01T00:00:00.800Z')).toMatchObject({
          acquired: true,
          lease: { expiresAt: '2026-01-01T00:00:01.800Z' },
        })
        expect((await store.acquireLease('poller', 'b', 1_000, '2026-01-01T00:00:01.700Z')).acquired).toBe(false)
        // Expired: the next one takes it, and the old holder no longer renews it.
        expect((await store.acquireLease('poller', 'b', 1_000, '2026-01-01T00:00:01.800Z')).acquired).toBe(true)
        expect(await store.acquireLease('poller', 'a', 1_000, '2026-01-01T00:00:01.900Z')).toMatchObject({
          acquired: false,
          lease: { holder: 'b' },
        })
        // Another name is another lease; a release by a non-holder does nothing; by the holder frees it.
        expect((await store.acquireLease('other', 'a', 1_000, t0)).acquired).toBe(true)
        await store.releaseLease('poller', 'a')
        expect((await store.acquireLease('poller', 'a', 1_000, '2026-01-01T00:00:02.000Z')).acquired).toBe(false)
        await store.releaseLease('poller', 'b')
        expect((await store.acquireLease('poller', 'a', 1_000, '2026-01-01T00:00:02.000Z')).acquired).toBe(true)
      }),
    )

    it(
      'lists the attempts whose outcome is open since before a time, oldest first, and counts them',
      withStore(async ({ store }) => {
        const t = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`
        const rows = [
          attempt('o1', 1, { state: 'confirming', updatedAt: t(3) }),
          attempt('o2', 1, { state: 'created', updatedAt: t(1) }),
          attempt('o3', 1, { state: 'pending', updatedAt: t(2) }),
          attempt('o4', 1, { state: 'pending', updatedAt: t(9) }), // open, but not long enough
          attempt('o5', 1, { state: 'action_required', updatedAt: t(0) }), // the shopper's step: not the service's
          attempt('o6', 1, { state: 'authorised', updatedAt: t(0), pspReference: 'PSP-O6' }),
          attempt('o7', 1, { state: 'refused', updatedAt: t(0), pspReference: 'PSP-O7' }),
        ]
        for (const row of rows) expect(await store.insertAttempt(row)).toBe(true)
        expect((await store.listOpenAttempts(t(5), 10)).map((a) => a.orderId)).toEqual(['o2', 'o3', 'o1'])
        expect((await store.listOpenAttempts(t(5), 2)).map((a) => a.orderId)).toEqual(['o2', 'o3'])
        expect(await store.countOpenAttempts(t(5))).toBe(3)
        // Answered: no longer open.
        await store.compareAndSet(
          'o3:1',
          1,
          { state: 'authorised', pspReference: 'PSP-O3', updatedAt: t(6) },
          change(rows[2]!, 'authorised'),
        )
        expect((await store.listOpenAttempts(t(5), 10)).map((a) => a.orderId)).toEqual(['o2', 'o1'])
        expect(await store.countOpenAttempts(t(10))).toBe(3)
      }),
    )

    it(
      'lists the money-holding attempts of orders where two hold money, by order and number, until one gives it back',
      withStore(async ({ store }) => {
        const rows = [
          attempt('o1', 1, { state: 'authorised', pspReference: 'PSP-O1-1' }),
          attempt('o1', 2, { state: 'refused', pspReference: 'PSP-O1-2' }),
          attempt('o1', 3, { state: 'captured', pspReference: 'PSP-O1-3' }),
          attempt('o2', 1, { state: 'partially_refunded', pspReference: 'PSP-O2-1' }),
          attempt('o2', 2, { state: 'refunded', pspReference: 'PSP-O2-2' }), // given back: holds nothing
          attempt('o3', 1, { state: 'action_required' }),
          attempt('o3', 2, { state: 'authorised', pspReference: 'PSP-O3-2' }),
          attempt('o4', 1, { state: 'partially_captured', pspReference: 'PSP-O4-1' }),
          attempt('o4', 2, { state: 'partially_refunded', pspReference: 'PSP-O4-2' }),
        ]
        for (const row of rows) expect(await store.insertAttempt(row)).toBe(true)
        const listed = async (limit: number) => (await store.listPaidTwice(limit)).map((a) => `${a.orderId}:${a.number}`)
        expect(await listed(10)).toEqual(['o1:1', 'o1:3', 'o4:1', 'o4:2'])
        expect(await listed(3)).toEqual(['o1:1', 'o1:3', 'o4:1'])
        // One of o1's refunded in full: o1 holds one payment now.
        await store.compareAndSet('o1:1', 1, { state: 'refunded', updatedAt: new Date().toISOString() }, change(rows[0]!, 'refunded'))
        expect(await listed(10)).toEqual(['o4:1', 'o4:2'])
      }),
    )

    it(
      'lists the captures, refunds and cancels unanswered since before a time, oldest first, and counts them',
      withStore(async ({ store }) => {
        const t = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`
        await store.insertAttempt(attempt('o1', 1, { state: 'authorised', pspReference: 'PSP-M1' }))
        const asked = (id: string, kind: ModificationRecord['kind'], updatedAt: string): ModificationRecord => ({
          id,
          orderId: 'o1',
          attemptId: 'o1:1',
          kind,
          ...(kind === 'cancel' ? {} : { amount: { currency: 'EUR', value: 100 } }),
          idempotencyKey: `key-${id}`,
          state: 'requested',
          version: 1,
          createdAt: updatedAt,
          updatedAt,
        })
        const rows = [
          asked('req-refund', 'refund', t(3)),
          asked('req-capture', 'capture', t(1)),
          asked('req-cancel', 'cancel', t(2)),
          asked('req-recent', 'refund', t(9)), // unanswered, but not long enough
        ]
        for (const row of rows) expect(await store.insertModification(row)).toBe(true)
        expect(await store.insertModification({ ...asked('req-answered', 'refund', t(0)), state: 'received' })).toBe(true)
        expect((await store.listOpenModifications(t(5), 10)).map((m) => m.id)).toEqual(['req-capture', 'req-cancel', 'req-refund'])
        expect((await store.listOpenModifications(t(5), 2)).map((m) => m.id)).toEqual(['req-capture', 'req-cancel'])
        expect(await store.countOpenModifications(t(5))).toBe(3)
        // Answered: no longer open.
        await store.updateModification('req-cancel', 1, { state: 'refused', errorCode: 'NOT_ALLOWED', updatedAt: t(6) })
        expect((await store.listOpenModifications(t(5), 10)).map((m) => m.id)).toEqual(['req-capture', 'req-refund'])
        expect(await store.countOpenModifications(t(10))).toBe(3)
        // Sent again: when, kept by a later write that does not say (a refusal's code kept), the open list's age unmoved.
        expect(await store.updateModification('req-refund', 1, { state: 'requested', updatedAt: t(3), sentAgainAt: t(6) })).toMatchObject({
          version: 2,
          updatedAt: t(3),
          sentAgainAt: t(6),
        })
        await store.updateModification('req-refund', 2, { state: 'requested', errorCode: 'IDEMPOTENCY_KEY_REUSED', updatedAt: t(3) })
        expect(await store.findModification('req-refund')).toMatchObject({ version: 3, sentAgainAt: t(6) })
        expect((await store.listOpenModifications(t(5), 10)).map((m) => m.id)).toEqual(['req-capture', 'req-refund'])
        // Dismissed by an operator: kept, with the code it had, and no longer open.
        expect(
          await store.updateModification('req-refund', 3, { state: 'dismissed', errorCode: 'IDEMPOTENCY_KEY_REUSED', updatedAt: t(7) }),
        ).toMatchObject({ state: 'dismissed', errorCode: 'IDEMPOTENCY_KEY_REUSED', version: 4, updatedAt: t(7), sentAgainAt: t(6) })
        expect((await store.listOpenModifications(t(5), 10)).map((m) => m.id)).toEqual(['req-capture'])
      }),
    )

    it(
      'reads a lease without taking it, and counts the changes not delivered, due or waiting',
      withStore(async ({ store }) => {
        expect(await store.readLease('poller')).toBeUndefined()
        await store.acquireLease('poller', 'a', 1_000, at)
        expect(await store.readLease('poller')).toEqual({ name: 'poller', holder: 'a', expiresAt: '2026-01-01T00:00:01.000Z' })
        // Read after it expired: still stored, and still not taken by the read.
        expect(await store.readLease('poller')).toMatchObject({ holder: 'a' })
        expect(await store.outboxBacklog()).toBe(0)
        const attempts = [attempt('o1', 1), attempt('o2', 1), attempt('o3', 1)]
        for (const a of attempts) {
          await store.insertAttempt(a)
          await store.compareAndSet(a.id, 1, { state: 'pending', updatedAt: at }, change(a, 'pending'))
        }
        const [first, second] = await store.dueOutbox('2100-01-01T00:00:00.000Z', 10)
        await store.markDelivered(first!.id)
        await store.markDeliveryFailed(second!.id, '2100-01-01T00:00:00.000Z')
        expect(await store.outboxBacklog()).toBe(2)
      }),
    )

    it(
      'of several racing takers of a free lease exactly one gets it',
      withStore(async ({ store }) => {
        const results = await Promise.all(['a', 'b', 'c', 'd'].map((holder) => store.acquireLease('poller', holder, 1_000, at)))
        expect(results.filter((r) => r.acquired)).toHaveLength(1)
        const winner = results.find((r) => r.acquired)!.lease.holder
        expect(results.every((r) => r.lease.holder === winner)).toBe(true)
      }),
    )

    it(
      'a poll batch claiming a lease commits only while its holder holds it; otherwise nothing is written',
      withStore(async ({ store }) => {
        const a = attempt('o1', 1)
        await store.insertAttempt(a)
        const batch = (holder: string, now: string) => ({
          lease: { name: 'poller', holder, now },
          cursor: 3,
          applied: [
            {
              sequence: 3,
              record: feedRecord(3),
              attemptId: a.id,
              expectedVersion: 1,
              patch: { state: 'authorised' as const, updatedAt: at },
            },
          ],
          skipped: [2],
          problems: [{ sequence: 1, change: feedRecord(1), reason: 'UNKNOWN_ORDER', nextTryAt: at }],
          resolved: [],
          at,
        })
        // No lease at all, then a lease that expired mid-page, then one another holder took over.
        await expect(store.applyChangesAndCursor(batch('a', at))).rejects.toMatchObject({ code: 'LEASE_LOST' })
        await store.acquireLease('poller', 'a', 1_000, at)
        await expect(store.applyChangesAndCursor(batch('a', '2026-01-01T00:00:01.000Z'))).rejects.toMatchObject({ code: 'LEASE_LOST' })
        await store.acquireLease('poller', 'b', 1_000, '2026-01-01T00:00:01.000Z')
        await expect(store.applyChangesAndCursor(batch('a', '2026-01-01T00:00:01.100Z'))).rejects.toMatchObject({ code: 'LEASE_LOST' })
        expect(await store.readCursor()).toBe(0)
        expect(await store.findAttempt(a.id)).toMatchObject({ state: 'created', version: 1 })
        expect(await store.listProblems()).toEqual([])
        expect(await store.dueOutbox('2100-01-01T00:00:00.000Z', 10)).toEqual([])
        // Its holder, in time: all of it.
        expect(await store.applyChangesAndCursor(batch('b', '2026-01-01T00:00:01.500Z'))).toEqual({ conflicts: [], repeats: [] })
        expect(await store.readCursor()).toBe(3)
        expect(await store.findAttempt(a.id)).toMatchObject({ state: 'authorised', version: 2 })
      }),
    )

    it(
      "a second handle on the same data sees the first one's writes and loses the same races",
      withStore(async ({ store, second }) => {
        if (!second) return
        const other = await second()
        try {
          expect((await store.acquireLease('poller', 'a', 60_000, at)).acquired).toBe(true)
          expect(await other.acquireLease('poller', 'b', 60_000, at)).toMatchObject({ acquired: false, lease: { holder: 'a' } })
          await store.insertAttempt(attempt('o1', 1))
          expect(await other.insertAttempt(attempt('o1', 1))).toBe(false)
          expect(await other.compareAndSet('o1:1', 1, { state: 'pending', updatedAt: at })).toMatchObject({ version: 2 })
          expect(await store.compareAndSet('o1:1', 1, { state: 'authorised', updatedAt: at })).toBeUndefined()
        } finally {
          await other.close()
        }
      }),
    )
  })
}

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BackendContext } from '../src/backend-context.js'
import { planPollBatch } from '../src/poller/plan-poll-batch.js'
import { openSqliteStore, type SqliteStore } from '../src/sqlite/index.js'
import type { AttemptRecord } from '../src/store/ledger-store.js'
import type { FeedRecord } from '../src/updated-payments-feed.js'
import { attempt } from './store-conformance.js'

const opened: Array<{ store: SqliteStore; dir: string }> = []
afterEach(async () => {
  for (const { store, dir } of opened.splice(0)) {
    await store.close()
    await rm(dir, { recursive: true, force: true })
  }
})

/** A ledger on a real SQLite file holding `attempts`, and what the poller plans for `record` against it. */
async function planFor(attempts: readonly AttemptRecord[], record: FeedRecord) {
  const dir = await mkdtemp(join(tmpdir(), 'feed-attribution-'))
  const store = openSqliteStore({ path: join(dir, 'ledger.sqlite') })
  opened.push({ store, dir })
  for (const a of attempts) expect(await store.insertAttempt(a)).toBe(true)
  // What planning reads of the back end: its store, its clock and the shop's orders; nothing else is called.
  const context = { store, now: () => new Date(), findOrder: async () => ({ id: 'o1', amount: { currency: 'EUR', value: 2800 } }) }
  return planPollBatch(context as unknown as BackendContext, [record], [])
}

const record = (metadata: Record<string, unknown>, status = 'refused'): FeedRecord => ({
  sequence: 7,
  pspReference: 'PSP-BANK',
  status,
  amount: { currency: 'EUR', value: 2800 },
  capturedAmount: { currency: 'EUR', value: 0 },
  refundedAmount: { currency: 'EUR', value: 0 },
  metadata,
})

// Attempt 1 waits at a bank's page, its step answered without a pspReference; attempt 2's card call is out (or its answer lost).
const atTheBank = attempt('o1', 1, { state: 'action_required', methodType: 'ideal' })
const cardOut = attempt('o1', 2, { state: 'pending' })

describe('a feed record of a payment the ledger has no pspReference for', () => {
  it('goes to the attempt its metadata names, not to the newest open one', async () => {
    const batch = await planFor([atTheBank, cardOut], record({ shop_order_id: 'o1', shop_attempt: 1 }))
    expect(batch.problems).toEqual([])
    expect(batch.applied.map((a) => [a.attemptId, a.patch.state, a.patch.pspReference])).toEqual([['o1:1', 'refused', 'PSP-BANK']])
  })

  it('without an attempt number and two open attempts, is kept as a problem rather than put on either', async () => {
    const batch = await planFor([atTheBank, cardOut], record({ shop_order_id: 'o1' }))
    expect(batch.applied).toEqual([])
    expect(batch.problems.map((p) => p.reason)).toEqual(['AMBIGUOUS_ATTEMPT'])
  })

  it('without an attempt number and one open attempt, goes to that one (a payment whose answer was lost)', async () => {
    const refused = { ...atTheBank, state: 'refused' as const, pspReference: 'PSP-EARLIER' }
    const batch = await planFor([refused, cardOut], record({ shop_order_id: 'o1' }, 'authorised'))
    expect(batch.applied.map((a) => [a.attemptId, a.patch.state])).toEqual([['o1:2', 'authorised']])
  })

  it('naming an attempt that holds another payment, is a conflict', async () => {
    const answered = { ...cardOut, state: 'authorised' as const, pspReference: 'PSP-CARD' }
    const batch = await planFor([atTheBank, answered], record({ shop_order_id: 'o1', shop_attempt: 2 }, 'authorised'))
    expect(batch.applied).toEqual([])
    expect(batch.problems.map((p) => p.reason)).toEqual(['CONFLICT'])
  })
})

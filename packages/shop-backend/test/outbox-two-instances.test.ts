import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { changeOf } from '../src/ledger/attempts.js'
import { createOutbox } from '../src/ledger/outbox.js'
import { openSqliteStore } from '../src/sqlite/index.js'
import type { AttemptPatch, AttemptRecord, OrderChange } from '../src/store/ledger-store.js'
import { attempt } from './store-conformance.js'
import { gate } from './support/gate.js'

const at = '2026-01-01T00:00:00.000Z'

describe('the outbox with two instances on one ledger', () => {
  it('an older change heard late from the other instance carries a lower version, so the shop keeps the newest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'outbox-two-instances-'))
    const path = join(dir, 'ledger.sqlite')
    const storeA = openSqliteStore({ path })
    const storeB = openSqliteStore({ path })
    const move = async (store: typeof storeA, a: AttemptRecord, patch: AttemptPatch) =>
      (await store.compareAndSet(a.id, a.version, patch, changeOf(a, patch)))!
    try {
      let p = attempt('p', 1)
      let q = attempt('q', 1)
      await storeA.insertAttempt(p)
      await storeA.insertAttempt(q)
      p = await move(storeA, p, { state: 'pending', updatedAt: at })
      q = await move(storeA, q, { state: 'pending', updatedAt: at })

      // What each instance told the shop, and the shop's rule: apply a change only above the version it kept.
      const heard: string[] = []
      const kept = new Map<string, { state: string; version: number }>()
      const shopHears = (who: string) => (c: OrderChange) => {
        heard.push(`${who} ${c.orderId}:${c.state}@${c.version}`)
        const key = `${c.orderId}:${c.attempt}`
        if (c.version > (kept.get(key)?.version ?? 0)) kept.set(key, { state: c.state, version: c.version })
      }
      const handler = gate()
      const atHandler = gate()
      let slowOnce = true
      const outboxA = createOutbox(
        storeA,
        async (c) => {
          // A's handler for order p is slow once: its drain, which also read q's first change, waits here.
          if (c.orderId === 'p' && slowOnce) {
            slowOnce = false
            atHandler.open()
            await handler.opened
          }
          shopHears('A')(c)
        },
        () => new Date(),
        () => {},
      )
      const outboxB = createOutbox(
        storeB,
        shopHears('B'),
        () => new Date(),
        () => {},
      )
      const drainingA = outboxA.drain()
      // A's drain has read p and q and waits in p's handler.
      await atHandler.opened
      q = await move(storeB, q, { state: 'authorised', updatedAt: at })
      await outboxB.drain()
      handler.open()
      await drainingA

      const forQ = heard.filter((h) => h.includes(' q:'))
      // At least once, from two instances: q's first change came again after its second ...
      expect(forQ.map((h) => h.replace(/@\d+$/, ''))).toEqual(['B q:pending', 'B q:authorised', 'A q:pending'])
      // ... with the lower version, so the shop's rule keeps the newest.
      expect(forQ.map((h) => Number(h.split('@')[1]))).toEqual([2, 3, 2])
      expect(kept.get('q:1')).toEqual({ state: 'authorised', version: q.version })
    } finally {
      await storeA.close()
      await storeB.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

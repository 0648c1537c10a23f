/**
 * A SQLite ledger whose WAL sync failed once stops for good: Linux reports a lost write-back only
 * once, so a later sync can succeed over a WAL that lost the rows before it. The failed sync is real
 * (fdatasync of a character device: EINVAL), and the next one would succeed (a regular file again).
 */
import { symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { useWorld } from './support/shop.js'

const { world, shop } = useWorld()

describe('a failed WAL sync', () => {
  it('sends no payment after it, even once a sync would succeed again, and fails readiness', async () => {
    const first = await shop()
    const walPath = `${first.storePath}-wal`
    // A second instance on the file: its group commit opens the WAL by its path at its first sync.
    const broken = await shop({
      storePath: first.storePath,
      secretKey: first.secretKey,
      connect: false,
      wrapStore: (store) => {
        unlinkSync(walPath) // SQLite keeps writing the file it has open
        symlinkSync('/dev/null', walPath)
        return store
      },
    })
    const before = world().sandboxPayments(first.shopId)
    const pay = async () => {
      const order = broken.createOrder()
      return broken.post('/api/payments', await broken.cardSubmission(order))
    }
    const refused = await pay()
    expect(refused).toMatchObject({ status: 500, body: { error: 'INTERNAL' } })
    // The disk "recovers": a sync of this path would succeed now.
    unlinkSync(walPath)
    writeFileSync(walPath, '')
    const after = await pay()
    expect(after).toMatchObject({ status: 500, body: { error: 'INTERNAL' } })
    expect(world().sandboxPayments(first.shopId)).toBe(before)
    expect(await broken.backend.readiness()).toMatchObject({ status: 'fail', checks: { store: { status: 'fail', code: 'STORE_ERROR' } } })
  })
})

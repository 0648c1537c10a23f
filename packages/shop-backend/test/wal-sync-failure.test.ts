/**
 * A SQLite ledger whose WAL sync failed stops for good: Linux reports a lost write-back only once, so
 * a later sync can succeed over a WAL that lost the rows before it. The shop's own SQLite store, built
 * from its parts on the shop's file, with its group commit syncing a path whose fdatasync really
 * fails (a character device: EINVAL), then a path whose sync would succeed.
 */
import { mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createGroupCommit } from '@card-jwe/sqlite-group-commit'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { sqliteDriver, sqliteSteps } from '../src/sqlite/sqlite-steps.js'
import { sqlLedgerStore } from '../src/store/sql-ledger-store.js'
import { useWorld } from './support/shop.js'

const { world, shop } = useWorld()
const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

describe('a failed WAL sync', () => {
  it('sends no payment after it, even where a later sync would succeed, and fails readiness', async () => {
    const first = await shop()
    const folder = mkdtempSync(join(tmpdir(), 'wal-sync-failure-'))
    const failing = join(folder, 'wal')
    symlinkSync('/dev/null', failing)
    const db = new Database(first.storePath)
    cleanups.push(() => {
      db.close()
      rmSync(folder, { recursive: true, force: true })
    })
    db.pragma('journal_mode = WAL')
    db.pragma('foreign_keys = ON')
    db.pragma('synchronous = NORMAL')
    const logged: string[] = []
    const failingStore = sqlLedgerStore(
      sqliteDriver(sqliteSteps(db), createGroupCommit(db, { walPath: failing, log: (line) => logged.push(line) })),
      {
        close: async () => {},
      },
    )
    const broken = await shop({ storePath: first.storePath, secretKey: first.secretKey, connect: false, wrapStore: () => failingStore })
    const before = world().sandboxPayments(first.shopId)
    const pay = async () => broken.post('/api/payments', await broken.cardSubmission(broken.createOrder()))
    expect(await pay()).toMatchObject({ status: 500, body: { error: 'INTERNAL' } })
    // The disk "recovers": a sync of this path would succeed now.
    unlinkSync(failing)
    writeFileSync(failing, '')
    expect(await pay()).toMatchObject({ status: 500, body: { error: 'INTERNAL' } })
    expect(world().sandboxPayments(first.shopId)).toBe(before)
    expect(await broken.backend.readiness()).toMatchObject({ status: 'fail', checks: { store: { status: 'fail', code: 'STORE_ERROR' } } })
    expect(logged).toEqual([
      'sqlite store: syncing the WAL failed (EINVAL); the store is stopped: check the disk, then restart the machine',
    ])
  })
})

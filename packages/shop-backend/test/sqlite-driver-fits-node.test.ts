import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openSqliteStore } from '../src/sqlite/index.js'
import { requireDriverFitsNode } from '../src/sqlite/driver-fits-node.js'

describe('the SQLite store and the better-sqlite3 it finds', () => {
  it('refuses better-sqlite3 13 on Node 20 by name, with both versions and what to install, before opening a file', () => {
    const thirteen = { version: '13.2.0', engines: { node: '>=22' } }
    expect(() => requireDriverFitsNode(thirteen, '20.20.2')).toThrow(
      'better-sqlite3 13.2.0 needs Node 22 or later, and this is Node 20.20.2: its first open would end the process; ' +
        'install a version built for this Node (better-sqlite3@12 runs on Node 20)',
    )
    expect(() => requireDriverFitsNode(thirteen, '22.12.0')).not.toThrow()
  })

  it('takes a range of majors, or none, as fitting: only ">=N" is judged', () => {
    expect(() => requireDriverFitsNode({ version: '12.11.1', engines: { node: '20.x || 22.x || 24.x' } }, '20.20.2')).not.toThrow()
    expect(() => requireDriverFitsNode({ version: '11.10.0' }, '20.20.2')).not.toThrow()
  })

  it('opens a ledger with the better-sqlite3 installed here', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'driver-fits-'))
    try {
      const store = openSqliteStore({ path: join(folder, 'payments.sqlite') })
      expect(store.schemaVersion).toBeGreaterThan(0)
      await store.close()
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

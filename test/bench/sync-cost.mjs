/**
 * What one fdatasync costs on this machine's disk: 4 KB written to a file in a new folder under `parent`
 * (the temporary folder, where the bench's ledgers are), then synced, as
 * a ledger's commit is (the WAL file appended, then fdatasync'd). CPU is this process's (libuv's pool
 * thread included, where the sync runs), per sync. A durable ledger pays it at least once for the
 * commits before a payment's call and once for those before its answer, shared by the commits a
 * sync covers.
 */
import { closeSync, fdatasync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'

export async function syncCost({ parent = tmpdir(), syncs = 500 } = {}) {
  const dir = mkdtempSync(join(parent, 'card-jwe-bench-sync-'))
  const fd = openSync(join(dir, 'sync-cost.bin'), 'w')
  const page = Buffer.alloc(4096, 1)
  try {
    for (let i = 0; i < 50; i++) writeSync(fd, page) // the file's first pages exist, as a reused WAL's do
    const cpu = process.cpuUsage()
    const started = performance.now()
    for (let i = 0; i < syncs; i++) {
      writeSync(fd, page, 0, page.length, (i % 50) * page.length)
      await new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())))
    }
    const used = process.cpuUsage(cpu)
    return {
      cpuMsPerSync: Number(((used.user + used.system) / 1000 / syncs).toFixed(3)),
      wallMsPerSync: Number(((performance.now() - started) / syncs).toFixed(3)),
    }
  } finally {
    closeSync(fd)
    rmSync(dir, { recursive: true, force: true })
  }
}

import { readdirSync, readlinkSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox } from '@card-jwe/sandbox'
import { holdPort } from '../../../test/support/free-port.js'
import { freshDataDir } from './support/sandbox-fixture.js'

let held: Awaited<ReturnType<typeof holdPort>>
beforeAll(async () => {
  held = await holdPort()
})
afterAll(() => held.release())

/** The files under `dir` this process holds open (Linux's /proc): the database, its WAL, their handles. */
const openFilesUnder = (dir: string) =>
  readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`)
      return target.startsWith(dir) ? [target] : []
    } catch {
      return [] // the directory's own handle, closed by the time it is read
    }
  })

it('startSandbox on a taken port rejects with EADDRINUSE (no uncaught error) and leaves no file of its folder open', async () => {
  const dataDir = freshDataDir()
  await expect(startSandbox({ dataDir, port: held.port, log: () => {} })).rejects.toMatchObject({ code: 'EADDRINUSE' })
  // Its database, WAL handles and second connection were closed on the way out.
  expect(openFilesUnder(dataDir)).toEqual([])
  const sandbox = await startSandbox({ dataDir, port: 0, log: () => {} })
  try {
    expect(openFilesUnder(dataDir).length).toBeGreaterThan(0) // what the check above would have seen
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(sandbox.createReadyMadeShop().storeId).toBeTruthy()
  } finally {
    await sandbox.close()
  }
})

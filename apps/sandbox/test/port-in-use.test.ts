import { readdirSync, readlinkSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox } from '@card-jwe/sandbox'
import { freshDataDir } from './support/sandbox-fixture.js'

let holder: Server
let port: number
beforeAll(async () => {
  holder = createServer()
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
  port = (holder.address() as { port: number }).port
})
afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())))

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
  await expect(startSandbox({ dataDir, port, log: () => {} })).rejects.toMatchObject({ code: 'EADDRINUSE' })
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

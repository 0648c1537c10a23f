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

it('startSandbox on a taken port rejects with EADDRINUSE (no uncaught error); its data folder starts on another port', async () => {
  const dataDir = freshDataDir()
  await expect(startSandbox({ dataDir, port, log: () => {} })).rejects.toMatchObject({ code: 'EADDRINUSE' })
  // Its database was closed on the way out: the folder serves a sandbox at once.
  const sandbox = await startSandbox({ dataDir, port: 0, log: () => {} })
  try {
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(sandbox.createReadyMadeShop().storeId).toBeTruthy()
  } finally {
    await sandbox.close()
  }
})

import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'

/** A loopback port held open until `release()`: a port that something else is using. */
export async function holdPort(): Promise<{ readonly port: number; release(): Promise<void> }> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { port, release: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** A free loopback port, so a process's address is known before it starts. */
export async function freePort(): Promise<number> {
  const held = await holdPort()
  await held.release()
  return held.port
}

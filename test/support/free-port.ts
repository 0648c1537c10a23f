import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'

/** A free loopback port, so a process's address is known before it starts. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

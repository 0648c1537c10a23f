/**
 * The transport a client gets by default: on Node, node:http with kept-alive connections (the
 * package's `#default-fetch` import under the `node` condition), not the global fetch; a `fetch`
 * passed in replaces it. Against a real keep-alive server on loopback.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { authorised, fastClient, payment, STORE } from './support/fixtures.js'

const onNode = typeof process !== 'undefined' && !!process.versions?.node && !process.versions.bun && !('Deno' in globalThis)

let server: Server | undefined
const realFetch = globalThis.fetch
afterEach(async () => {
  globalThis.fetch = realFetch
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  server?.closeAllConnections()
  server = undefined
})

/** A keep-alive server answering every request with `body`; counts the connections it accepted. */
async function keepAliveServer(body: unknown): Promise<{ url: string; connections: () => number; requests: () => number }> {
  let connections = 0
  let requests = 0
  server = createServer((request, response) => {
    requests++
    request.resume()
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)))
  })
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections, requests: () => requests }
}

describe.runIf(onNode)('the default transport on Node', () => {
  it('sends through node:http, never the global fetch, and reuses one kept-alive connection', async () => {
    const service = await keepAliveServer(authorised)
    globalThis.fetch = () => Promise.reject(new Error('the global fetch was used'))
    const { client } = fastClient(service.url)
    for (let i = 0; i < 3; i++) expect(await client.createPayment(STORE, payment)).toMatchObject(authorised)
    expect(service.requests()).toBe(3)
    expect(service.connections()).toBe(1)
  })

  it('gives way to a fetch passed in', async () => {
    const service = await keepAliveServer(authorised)
    let calls = 0
    const { client } = fastClient(service.url, {
      fetch: (url, init) => {
        calls++
        return realFetch(url, init)
      },
    })
    expect(await client.createPayment(STORE, payment)).toMatchObject(authorised)
    expect(calls).toBe(1)
  })
})

/**
 * The tests' bad network judges a request by the settings in force when the shop sent it: one the
 * proxy reads late (a stalled event loop, a client that gave up) is not let through by a service
 * brought back up in the meantime.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startWorld, type World } from './support/shop.js'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())

const post = (path: string) =>
  world.proxy.fetch(`${world.proxy.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    signal: new AbortController().signal,
    redirect: 'manual',
  })

it('a request sent while the service is down never reaches it, though the proxy reads it after the service is back', async () => {
  world.proxy.mode = 'down'
  // Changed before this process reads the request off the socket: the proxy sees it only afterwards.
  const sent = post('/v1/sent-while-down')
  world.proxy.mode = 'pass'
  await expect(sent).rejects.toThrow()
  expect([world.proxy.started('POST', '/sent-while-down'), world.proxy.counted('POST', '/sent-while-down')]).toEqual([1, 0])
})

it('a request sent while the service is up reaches it, though the proxy reads it after the service went down', async () => {
  world.proxy.mode = 'pass'
  const sent = post('/v1/sent-while-up')
  world.proxy.mode = 'down'
  // The sandbox answers (it knows no such path): what matters is that it was asked.
  expect((await sent).status).toBeGreaterThanOrEqual(400)
  expect(world.proxy.counted('POST', '/sent-while-up')).toBe(1)
  world.proxy.mode = 'pass'
})

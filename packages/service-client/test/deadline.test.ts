/**
 * The deadline: one for the whole call, retries included, per client and per call; and the default
 * one measured against a frozen service (logged, not asserted tightly: speed is not a test's matter).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createServiceClient, DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_DEADLINE_MS, ServiceUnreachableError } from '../src/index.js'
import { misbehavingServer, reply, type MisbehavingServer } from './support/misbehaving-server.js'
import { credentials, fastClient, payment, rejection, STORE } from './support/fixtures.js'

let server: MisbehavingServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('deadline', () => {
  it(
    'with the defaults, a frozen service ends the call as SERVICE_TIMEOUT by the documented deadline',
    async () => {
      server = await misbehavingServer(() => reply.hang())
      const client = createServiceClient({ baseUrl: server.url, credentials })
      const started = performance.now()
      const error = await rejection(client.createPayment(STORE, payment))
      const took = performance.now() - started
      const code = (error as ServiceUnreachableError).code
      console.log(
        `frozen service, default settings: ${error.name} ${code} after ${Math.round(took)} ms, ${server.received.length} attempts`,
      )
      expect(error).toBeInstanceOf(ServiceUnreachableError)
      expect(error).toMatchObject({ code: 'SERVICE_TIMEOUT', attempts: server.received.length })
      // 5 s, a wait of 0.25-0.5 s, 5 s, a wait of 0.5-1 s, then what is left: always three.
      expect(server.received).toHaveLength(3)
      expect(new Set(server.keys()).size).toBe(1)
      expect(took).toBeLessThan(DEFAULT_DEADLINE_MS + 5_000)
      expect(took).toBeGreaterThan(2 * DEFAULT_ATTEMPT_TIMEOUT_MS)
    },
    DEFAULT_DEADLINE_MS + 15_000,
  )

  it('the client says its deadline: the given one, else the default, and the same after withCredentials', () => {
    const given = createServiceClient({ baseUrl: 'http://127.0.0.1:9', deadlineMs: 7_000 })
    expect(given.deadlineMs).toBe(7_000)
    expect(given.withCredentials(credentials).deadlineMs).toBe(7_000)
    expect(createServiceClient({ baseUrl: 'http://127.0.0.1:9' }).deadlineMs).toBe(DEFAULT_DEADLINE_MS)
  })

  it('a per-call deadline and attempt timeout override the client', async () => {
    server = await misbehavingServer(() => reply.hang())
    const { client } = fastClient(server.url, { deadlineMs: 10_000, attemptTimeoutMs: 5_000 })
    const started = performance.now()
    const error = await rejection(client.createPayment(STORE, payment, { deadlineMs: 1_000, attemptTimeoutMs: 300 }))
    // The client's 5 s attempt would allow one attempt in 1 s, its 10 s deadline a call past 5 s: room for a busy host.
    expect(error).toMatchObject({ code: 'SERVICE_TIMEOUT' })
    expect((error as ServiceUnreachableError).attempts).toBeGreaterThanOrEqual(2)
    expect(performance.now() - started).toBeLessThan(5_000)
  })

  it('the waits count against the deadline even when sleep returns at once', async () => {
    server = await misbehavingServer(() => reply.refusal(503, 'BUSY'))
    const { client, waits } = fastClient(server.url, { deadlineMs: 1_000, backoff: { initialMs: 400, maxMs: 400 } })
    await rejection(client.createPayment(STORE, payment))
    // 400 + 400 fit in 1 s, a third 400 does not.
    expect(waits).toEqual([400, 400])
    expect(server.received).toHaveLength(3)
  })

  it('jitter takes up to half of each wait, from the random given', async () => {
    server = await misbehavingServer(() => reply.refusal(503, 'BUSY'))
    const { client, waits } = fastClient(server.url, { deadlineMs: 1_000, backoff: { initialMs: 100, maxMs: 400 }, random: () => 0 })
    await rejection(client.createPayment(STORE, payment))
    expect(waits.slice(0, 4)).toEqual([50, 100, 200, 200])
  })
})

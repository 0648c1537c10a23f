/**
 * A minimal shop for the sandbox to register: the spec's two Basic-auth settings endpoints on
 * loopback, keeping the pushed service_secret in memory. Real HTTP, real Basic auth.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SHOP_SIDE_PATHS } from '@card-jwe/service-client'

export interface TestShop {
  readonly url: string
  readonly key: string
  readonly secret: string
  /** Settings as the shop stores them; `service_secret` is empty until registration. */
  readonly settings: Map<string, string>
  /** Requests the shop received, as "METHOD path status". */
  readonly calls: string[]
  close(): Promise<void>
}

export async function startTestShop(
  options: { settingsBody?: string; pushDelayMs?: number /** Pushes stored, then answered 500. */; failPushes?: number } = {},
): Promise<TestShop> {
  let failPushes = options.failPushes ?? 0
  const key = randomBytes(16).toString('hex')
  const secret = randomBytes(24).toString('hex')
  const expected = Buffer.from(`Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`)
  const settings = new Map([['service_secret', '']])
  const calls: string[] = []
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const given = Buffer.from(req.headers.authorization ?? '')
    const authorised = given.length === expected.length && timingSafeEqual(given, expected)
    const reply = (status: number, body?: unknown) => {
      calls.push(`${req.method} ${req.url} ${status}`)
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body))
    }
    if (!authorised) return reply(401, { error: 'unauthorized' })
    const list = () => [...settings].map(([id, value]) => ({ id, value }))
    if (req.method === 'GET' && req.url === SHOP_SIDE_PATHS.settings) return reply(200, options.settingsBody ?? list())
    if (req.method === 'POST' && req.url === SHOP_SIDE_PATHS.settingsBatch) {
      if (options.pushDelayMs) await new Promise((resolve) => setTimeout(resolve, options.pushDelayMs))
      const { update } = JSON.parse(Buffer.concat(chunks).toString()) as { update: Array<{ id: string; value: string }> }
      for (const { id, value } of update) settings.set(id, value)
      if (failPushes-- > 0) return reply(500, { error: 'busy' })
      return reply(200, list())
    }
    return reply(404)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    secret,
    settings,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/**
 * The feed read again: records at or before the cursor are ones the poller read before, and their
 * seen marks are forgotten after 30 days, so the poller drops them before planning anything.
 */
import { describe, expect, it } from 'vitest'
import { useWorld } from './support/shop.js'

const { shop, world } = useWorld()

describe('the feed read again', () => {
  it('drops records at or before the cursor when the service gives a page again: nothing is planned for them', async () => {
    const lines: string[] = []
    const s = await shop({ log: (line) => void lines.push(line) })
    const order = s.createOrder()
    expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toMatchObject({ resultCode: 'Authorised' })
    const pages: Buffer[] = []
    const proxy = world().proxy
    proxy.answer = (_method, path, body) => {
      if (path.endsWith('/updated-payments')) pages.push(body)
      return body
    }
    try {
      const first = await s.backend.poller.pollNow()
      const read = JSON.parse(pages[0]!.toString('utf8')) as { payments: unknown[]; hasMore: boolean }
      expect(read.payments.length).toBeGreaterThan(0)
      expect(read.hasMore).toBe(false)
      expect(first.applied + first.skipped).toBeGreaterThan(0)
      // The service answers the next read with the page it gave before, cursor and all.
      proxy.answer = (_method, path, body) => (path.endsWith('/updated-payments') ? pages[0]! : body)
      expect(await s.backend.poller.pollNow()).toMatchObject({ applied: 0, skipped: 0, problems: [] })
      expect(lines).toContain(`updated-payments gave ${read.payments.length} record(s) at or before the cursor; dropped`)
    } finally {
      proxy.answer = (_method, _path, body) => body
    }
  })
})

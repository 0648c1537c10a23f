/**
 * The demo admin's click whose answer is lost, in real Chromium: a partial refund, or a renewal
 * charged to a saved card, reaches the service, but the shop never hears back (a proxy between the
 * shop and the sandbox drops every answer to it). The admin is told the outcome is unknown, and the
 * row offers only that request again; once the service answers, pressing it moves nothing more: one
 * refund or one charge at the service, under one idempotency key.
 */
import { describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { adminRow, payNewOrder } from './checkout-steps.js'
import { proxiedDemoStack } from './proxied-demo-stack.js'

const CARD = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })

const t = proxiedDemoStack()

describe('an admin click whose answer is lost', () => {
  it('a partial refund: pressed again, the same request, refunded once', async () => {
    const { page } = await t.stack.page()
    const reference = await payNewOrder(page, t.stack.shop.url, CARD)
    const row = await adminRow(page, t.stack.shop.url, reference)
    const cells = (n: number) => row.locator('td').nth(n).textContent()
    await row.getByRole('button', { name: `Capture ${reference}`, exact: true }).click()
    await expect.poll(() => cells(2)).toBe('Captured')

    t.proxy.matches = (method, path) => method === 'POST' && path.endsWith('/refunds')
    t.proxy.mode = 'lose-answers'
    const refund = async () => {
      // The amount again where the row asks for it; a row that repeats the request does not.
      const amount = row.getByLabel(`Amount for ${reference} (empty: all)`)
      if ((await amount.count()) > 0) await amount.fill('5.00')
      await row.getByRole('button', { name: new RegExp(`^(Repeat )?Refund ${reference}$`) }).click()
    }
    await refund()
    await expect.poll(() => page.textContent('#status'), { timeout: 30_000 }).toMatch(/No answer yet/)
    expect(t.proxy.counted('POST', '/refunds')).toBeGreaterThan(0)
    expect(await row.getByRole('button', { name: `Repeat Refund ${reference}`, exact: true }).count()).toBe(1)
    // Nothing new while it is unanswered: no other action of the order.
    expect(await row.getByRole('button', { name: `Cancel ${reference}`, exact: true }).count()).toBe(0)

    // A reload keeps the request to repeat.
    await page.reload()
    await page.waitForSelector('body[data-ready="true"]')
    t.proxy.mode = 'pass'
    await refund()
    await expect
      .poll(() => page.textContent('#status'), { timeout: 20_000 })
      .toBe(`Refund requested for ${reference} (sent again); now: Partly refunded.`)
    expect(t.proxy.keysForwarded('POST', '/refunds')).toHaveLength(1)
    expect(await cells(4)).toBe('€5.00')
    // Answered: the row offers the order's actions again.
    expect(await row.getByRole('button', { name: `Refund ${reference}`, exact: true }).count()).toBe(1)
  })

  it.each([
    ['reading it throws (cookies blocked)', 'read'],
    ['writing it throws (its quota full)', 'write'],
  ])('a partial refund where the browser refuses storage, %s: pressed again on the page, refunded once', async (_, refused) => {
    const { page } = await t.stack.page()
    t.proxy.mode = 'pass'
    const reference = await payNewOrder(page, t.stack.shop.url, CARD)
    // From here on, as such a browser does.
    await page.addInitScript((refused) => {
      if (refused === 'write') {
        Storage.prototype.setItem = () => {
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
        }
        return
      }
      Object.defineProperty(window, 'localStorage', {
        configurable: true,
        get: () => {
          throw new DOMException('The operation is insecure.', 'SecurityError')
        },
      })
    }, refused)
    const row = await adminRow(page, t.stack.shop.url, reference)
    await row.getByRole('button', { name: `Capture ${reference}`, exact: true }).click()
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('Captured')
    const before = t.proxy.keysForwarded('POST', '/refunds').length

    t.proxy.matches = (method, path) => method === 'POST' && path.endsWith('/refunds')
    t.proxy.mode = 'lose-answers'
    await row.getByLabel(`Amount for ${reference} (empty: all)`).fill('5.00')
    await row.getByRole('button', { name: `Refund ${reference}`, exact: true }).click()
    await expect.poll(() => page.textContent('#status'), { timeout: 30_000 }).toMatch(/No answer yet/)
    t.proxy.mode = 'pass'
    await row.getByRole('button', { name: `Repeat Refund ${reference}`, exact: true }).click()
    await expect
      .poll(() => page.textContent('#status'), { timeout: 20_000 })
      .toBe(`Refund requested for ${reference} (sent again); now: Partly refunded.`)
    expect(t.proxy.keysForwarded('POST', '/refunds')).toHaveLength(before + 1)
  })

  it('a renewal on the saved card: pressed again, the same renewal order, charged once', async () => {
    const { page } = await t.stack.page()
    t.proxy.mode = 'pass'
    const signIn = async () => {
      await page.click('#sign-in')
      await page.waitForSelector('#sign-out')
    }
    const reference = await payNewOrder(page, t.stack.shop.url, CARD, { before: signIn, saveCard: true })
    const row = await adminRow(page, t.stack.shop.url, reference)
    // A renewal is a new order like any other: its money is taken as the admin set it now.
    const post = (path: string, body: unknown) =>
      page.evaluate(
        async ([to, data]) => {
          const answer = await fetch(to, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(data) })
          return { status: answer.status, body: await answer.json() }
        },
        [path, body] as const,
      )
    expect((await post('/api/admin/capture-timing', { captureDelayHours: 0 })).status).toBe(200)
    t.proxy.matches = (method, path) => method === 'POST' && path.endsWith('/payments')
    t.proxy.mode = 'lose-answers'
    await row.getByRole('button', { name: `Renew subscription ${reference}`, exact: true }).click()
    await expect.poll(() => page.textContent('#status'), { timeout: 30_000 }).toMatch(/No answer yet/)
    const lost = t.proxy.keysForwarded('POST', '/payments').length
    t.proxy.mode = 'pass'
    await row.getByRole('button', { name: `Repeat Renew subscription ${reference}`, exact: true }).click()
    await expect.poll(() => page.textContent('#status'), { timeout: 20_000 }).toMatch(/^Renewal of /)
    const said = (await page.textContent('#status'))!
    const renewal = new RegExp(
      `^Renewal of ${reference}, sent again: (order-\\S+) charged to the saved card ending in \\d{4} \\(visa\\): Authorised\\.$`,
    ).exec(said)?.[1]
    expect(renewal, said).toBeDefined()
    // The repeat went under the lost call's key: no key beyond those of the payments before.
    expect(t.proxy.keysForwarded('POST', '/payments')).toHaveLength(lost)
    const atSandbox = await fetch(`${t.stack.sandbox.baseUrl}/sandbox/payments?reference=${encodeURIComponent(renewal!)}`)
    expect(((await atSandbox.json()) as { payments: unknown[] }).payments).toHaveLength(1)
    const renewed = page.locator('#orders tr', { hasText: renewal! })
    expect(await renewed.locator('td').nth(5).textContent()).toBe('at payment')

    // Only a paid order is renewed: the shopper's order not paid yet is refused, nothing charged.
    const unpaid = (await post('/api/orders', { items: [{ sku: 'tea-sencha', quantity: 1 }] })).body as { id: number }
    const refused = await post('/api/admin/renewals', { orderId: unpaid.id, requestId: crypto.randomUUID() })
    expect(refused).toMatchObject({ status: 409, body: { error: 'ORDER_NOT_RENEWABLE' } })
    expect(t.proxy.keysForwarded('POST', '/payments')).toHaveLength(lost)
  })
})

/**
 * The demo admin's open requests, in real Chromium: a refund the payment service never got (it was
 * down) stays open, and once it has been open 15 minutes (the shop's clock moved on) the problems
 * table lists it. Dismiss ends it without sending it: no refund reaches the service, and the back
 * end's order view keeps it dismissed. Retry sends another such refund under its own key once the
 * service is back: one refund.
 */
import { describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import type { Page } from 'playwright'
import { adminRow, payNewOrder } from './checkout-steps.js'
import { proxiedDemoStack } from './proxied-demo-stack.js'

const CARD = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
/** What the browser logs for the refund answered 503 while the service was down: the only console error allowed. */
const OUTAGE = ['console: Failed to load resource: the server responded with a status of 503 (Service Unavailable)']
/** Past the 15 minutes after which the back end lists an unanswered request. */
const PAST_OPEN_TOO_LONG_MS = 16 * 60_000

let ahead = 0
const t = proxiedDemoStack({ now: () => new Date(Date.now() + ahead) })

/** A new order paid and captured, then a refund of 5.00 the service never got: its row on the admin page. */
async function refundLeftOpen(page: Page): Promise<string> {
  const reference = await payNewOrder(page, t.stack.shop.url, CARD)
  const row = await adminRow(page, t.stack.shop.url, reference)
  await row.getByRole('button', { name: `Capture ${reference}`, exact: true }).click()
  await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('Captured')
  t.proxy.matches = (method, path) => method === 'POST' && path.endsWith('/refunds')
  t.proxy.mode = 'down'
  await row.getByLabel(`Amount for ${reference} (empty: all)`).fill('5.00')
  await row.getByRole('button', { name: `Refund ${reference}`, exact: true }).click()
  await expect.poll(() => page.textContent('#status'), { timeout: 30_000 }).toMatch(/No answer yet/)
  t.proxy.mode = 'pass'
  return reference
}

/** The admin page drawn again after the shop's clock moved past the 15 minutes: the open refund's problem row. */
async function listedAfterAWhile(page: Page) {
  ahead += PAST_OPEN_TOO_LONG_MS
  await page.goto(`${t.stack.shop.url}/admin.html`)
  await page.waitForSelector('body[data-ready="true"]')
  const problem = page.locator('#problems tr', { hasText: 'No answer from the payment service to this refund of €5.00' })
  await expect.poll(() => problem.count()).toBe(1)
  return problem
}

describe('a refund the payment service never answered, on the admin page (Chromium)', () => {
  it('is listed after 15 minutes; Dismiss takes it off the list and nothing is sent', async () => {
    const { page, problems } = await t.stack.page()
    await refundLeftOpen(page)
    const problem = await listedAfterAWhile(page)
    const [what, orderId] = await problem.locator('td').allTextContents()
    expect(what).toMatch(/^Refund \S+$/)
    await t.stack.screenshot(page, 'admin-open-request')
    await problem.getByRole('button', { name: /^Dismiss/ }).click()
    await expect.poll(() => problem.count()).toBe(0)
    expect(await page.textContent('#status')).toBe(
      `${what} dismissed: it is not sent again. Check the payment in the payment service's back office before acting by hand.`,
    )
    expect(t.proxy.counted('POST', '/refunds')).toBe(0)
    const view = (await (await fetch(`${t.stack.shop.url}/api/admin/orders/${orderId}`)).json()) as {
      modifications: Array<{ kind: string; state: string }>
    }
    expect(view.modifications.filter((m) => m.kind === 'refund').map((m) => m.state)).toEqual(['dismissed'])
    expect(problems).toEqual(OUTAGE)
  })

  it('Retry sends it under its key now that the service is back: one refund, off the list', async () => {
    const { page, problems } = await t.stack.page()
    await refundLeftOpen(page)
    const problem = await listedAfterAWhile(page)
    const [what] = await problem.locator('td').allTextContents()
    const before = t.proxy.counted('POST', '/refunds')
    await problem.getByRole('button', { name: /^Retry/ }).click()
    await expect.poll(() => problem.count()).toBe(0)
    expect(await page.textContent('#status')).toBe(`${what} sent again: the payment service has it.`)
    expect(t.proxy.counted('POST', '/refunds')).toBe(before + 1)
    expect(t.proxy.keysForwarded('POST', '/refunds')).toHaveLength(1)
    expect(problems).toEqual(OUTAGE)
  })
})

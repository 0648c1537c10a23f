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
import { OUTAGE, problemListedLater, shopClock } from './open-too-long.js'
import { proxiedDemoStack } from './proxied-demo-stack.js'

const CARD = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })

const clock = shopClock()
const t = proxiedDemoStack({ now: clock.now })

/** A new order paid and captured, then a refund of 5.00 the service never answered (`down`: never got it). */
async function refundLeftOpen(page: Page, mode: 'down' | 'lose-answers') {
  const reference = await payNewOrder(page, t.stack.shop.url, CARD)
  const row = await adminRow(page, t.stack.shop.url, reference)
  await row.getByRole('button', { name: `Capture ${reference}`, exact: true }).click()
  await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('Captured')
  t.proxy.matches = (method, path) => method === 'POST' && path.endsWith('/refunds')
  t.proxy.mode = mode
  await row.getByLabel(`Amount for ${reference} (empty: all)`).fill('5.00')
  await row.getByRole('button', { name: `Refund ${reference}`, exact: true }).click()
  await expect.poll(() => page.textContent('#status'), { timeout: 30_000 }).toMatch(/No answer yet/)
  t.proxy.mode = 'pass'
  return { reference, row, orderId: (await row.getAttribute('data-order-id'))! }
}

/** The order's problem row for its open refund: none at first, listed once the shop's clock moved past the 15 minutes. */
const listedAfterAWhile = (page: Page, reference: string) =>
  problemListedLater(page, t.stack.shop.url, {
    reference,
    why: 'No answer from the payment service to this refund of €5.00',
    clock,
  })

describe('a refund the payment service never answered, on the admin page (Chromium)', () => {
  it('is listed after 15 minutes; Dismiss, confirmed, takes it off the list and nothing is sent', async () => {
    const { page, problems } = await t.stack.page()
    const { reference, row, orderId } = await refundLeftOpen(page, 'down')
    const problem = await listedAfterAWhile(page, reference)
    const [what] = await problem.locator('td').allTextContents()
    expect(what).toMatch(/^Refund \S+$/)
    await t.stack.screenshot(page, 'admin-open-request')
    const asked: string[] = []
    page.once('dialog', (dialog) => {
      asked.push(dialog.message())
      void dialog.accept()
    })
    await problem.getByRole('button', { name: /^Dismiss/ }).click()
    await expect.poll(() => problem.count()).toBe(0)
    expect(asked).toEqual([expect.stringMatching(/^Dismiss ends this request without sending it, for good\. Try Retry first/)])
    expect(await page.textContent('#status')).toMatch(new RegExp(`^${what} dismissed: this shop does not send it again`))
    expect(t.proxy.counted('POST', '/refunds')).toBe(0)
    const view = (await (await fetch(`${t.stack.shop.url}/api/admin/orders/${orderId}`)).json()) as {
      modifications: Array<{ kind: string; state: string }>
    }
    expect(view.modifications.filter((m) => m.kind === 'refund').map((m) => m.state)).toEqual(['dismissed'])
    // The order's row no longer offers to repeat the dismissed refund: its actions are back.
    await expect.poll(() => row.getByRole('button', { name: `Refund ${reference}`, exact: true }).count()).toBe(1)
    expect(await row.getByRole('button', { name: `Repeat Refund ${reference}`, exact: true }).count()).toBe(0)
    expect(problems).toEqual(OUTAGE)
  })

  it('Retry sends one whose answer was lost under its key: the service answers it again, one refund, off the list', async () => {
    const { page, problems } = await t.stack.page()
    const { reference, row } = await refundLeftOpen(page, 'lose-answers')
    const problem = await listedAfterAWhile(page, reference)
    const [what] = await problem.locator('td').allTextContents()
    const keys = t.proxy.keysForwarded('POST', '/refunds')
    const sent = t.proxy.counted('POST', '/refunds')
    await problem.getByRole('button', { name: /^Retry/ }).click()
    await expect.poll(() => problem.count()).toBe(0)
    expect(await page.textContent('#status')).toBe(
      `${what} sent again: the payment service received it; its outcome comes with the payment updates.`,
    )
    // Sent once more, under the key its first send went with: the service answers that one again.
    expect(t.proxy.counted('POST', '/refunds')).toBe(sent + 1)
    expect(t.proxy.keysForwarded('POST', '/refunds')).toEqual(keys)
    await expect.poll(() => row.getByRole('button', { name: `Repeat Refund ${reference}`, exact: true }).count()).toBe(0)
    expect(problems).toEqual(OUTAGE)
  })
})

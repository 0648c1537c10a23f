/**
 * The demo admin's open payments, in real Chromium: a card payment whose outcome the shop never
 * learned (the service took it and its answer was lost, or it never got it) is not on the problems
 * table at first, and is once it has been open 15 minutes (the shop's clock moved on), with no action
 * that could move money. A refresh from the payment service settles the one the service took: off
 * the list, the order authorised. The one it never got stays listed after a refresh, its order "Payment
 * in progress" (the back end told the shop its outcome is open).
 */
import { describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import type { Page } from 'playwright'
import { adminRow, openCheckout, result, typeCard } from './checkout-steps.js'
import { OUTAGE, problemListedLater, shopClock } from './open-too-long.js'
import { proxiedDemoStack } from './proxied-demo-stack.js'

const CARD = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })

const clock = shopClock()
const t = proxiedDemoStack({ now: clock.now })

/** A new order's card payment whose answer the shop never got (`lose-answers`: the service took it). */
async function paymentLeftOpen(page: Page, mode: 'down' | 'lose-answers') {
  await openCheckout(page, t.stack.shop.url)
  await typeCard(page, CARD, 'A. Shopper')
  t.proxy.matches = (method, path) => method === 'POST' && path.endsWith('/payments')
  t.proxy.mode = mode
  await page.getByRole('button', { name: /^Pay/ }).click()
  const shown = await result(page)
  t.proxy.mode = 'pass'
  expect(shown.code).not.toBe('Authorised')
  const reference = shown.order.split(' ')[0]!
  const row = await adminRow(page, t.stack.shop.url, reference)
  return { reference, row }
}

/** The order's problem row for its open payment: none at first, listed once the shop's clock moved past the 15 minutes. */
const listedAfterAWhile = (page: Page, reference: string) =>
  problemListedLater(page, t.stack.shop.url, {
    reference,
    why: 'No outcome from the payment service for this card payment since',
    clock,
  })

const refreshFromService = (page: Page) => page.getByRole('button', { name: 'Refresh from the payment service' }).click()

describe('a payment whose outcome stayed open, on the admin page (Chromium)', () => {
  it('is listed after 15 minutes with no action; a refresh learns the service took it: off the list, authorised', async () => {
    const { page, problems } = await t.stack.page()
    const { reference, row } = await paymentLeftOpen(page, 'lose-answers')
    const problem = await listedAfterAWhile(page, reference)
    expect(await problem.locator('td').allTextContents()).toEqual([
      'Payment attempt 1',
      reference,
      expect.stringMatching(/money may have been taken\. Refresh from the payment service, or the shopper's next try, settles it/),
      '—',
      '—',
      '—',
    ])
    expect(await problem.getByRole('button').count()).toBe(0)
    expect(await page.locator('#no-problems').isHidden()).toBe(true)
    await t.stack.screenshot(page, 'admin-open-payment')
    await refreshFromService(page)
    await expect.poll(() => problem.count()).toBe(0)
    await expect.poll(() => page.locator('#orders tr', { hasText: reference }).locator('td').nth(2).textContent()).toBe('Authorised')
    expect(await row.count()).toBe(1)
    expect(problems).toEqual(OUTAGE)
  })

  it('the service never got: still listed after a refresh, nothing came to settle it', async () => {
    const { page, problems } = await t.stack.page()
    const { reference } = await paymentLeftOpen(page, 'down')
    const problem = await listedAfterAWhile(page, reference)
    await refreshFromService(page)
    await expect.poll(() => page.textContent('#status')).toMatch(/\S/)
    await page.reload()
    await page.waitForSelector('body[data-ready="true"]')
    expect(await problem.count()).toBe(1)
    // The shop heard the open outcome as it happened: the order reads as a payment in progress, not unpaid.
    expect(await page.locator('#orders tr', { hasText: reference }).locator('td').nth(2).textContent()).toBe('Payment in progress')
    expect(problems).toEqual(OUTAGE)
  })
})

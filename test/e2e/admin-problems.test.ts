/**
 * The demo's admin page on the back end's admin routes, in real Chromium: an order change the shop's
 * order table could not take (another process held it locked) shows as a problem, and Retry, once the
 * table is free again, delivers it and clears the problem; the order shows as paid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemoStack, type DemoStack } from './demo-stack.js'
import { paidWhileOrderTableLocked } from './order-table-locked.js'

let stack: DemoStack
beforeAll(async () => {
  stack = await startDemoStack()
}, 60_000)
afterAll(() => stack?.close())

describe('the admin page on the admin routes (Chromium)', () => {
  it('shows an order change the order table refused as a problem; Retry delivers it and clears it', async () => {
    const { order, answer } = await paidWhileOrderTableLocked(stack)
    // The payment is the ledger's: the shopper heard Authorised all the same.
    expect(answer).toEqual({ resultCode: 'Authorised' })
    expect(stack.shopLog.some((line) => line.startsWith(`onOrderChange failed for order ${order.id} `))).toBe(true)

    const { page, problems } = await stack.page()
    await page.goto(`${stack.shop.url}/admin.html`)
    await page.waitForSelector('body[data-ready="true"]')
    const orderState = () => page.locator('tr', { hasText: order.reference }).locator('td').nth(2).textContent()
    expect(await orderState()).toBe('Awaiting payment')
    const problem = page.locator('#problems tr')
    await expect.poll(() => problem.count()).toBe(1)
    const cells = await problem.locator('td').allTextContents()
    expect(cells.slice(1, 4)).toEqual([String(order.id), 'The order could not be updated (to authorised)', '1'])
    expect(await page.locator('#no-problems').isHidden()).toBe(true)
    await stack.screenshot(page, 'admin-problem')

    await problem.getByRole('button', { name: /^Retry/ }).click()
    await expect.poll(() => problem.count()).toBe(0)
    expect(await page.textContent('#status')).toMatch(/^Order change \d+ delivered: the order is up to date\.$/)
    expect(await page.locator('#no-problems').isVisible()).toBe(true)
    // The orders table is drawn again with the problems: the order is paid now.
    await expect.poll(orderState).toBe('Authorised')
    await stack.screenshot(page, 'admin-problem-retried')
    expect(problems).toEqual([])
  })
})

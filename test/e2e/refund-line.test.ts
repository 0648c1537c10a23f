/**
 * The demo admin's refund by line, in real Chromium: an order of a tea and a mug, paid by card and
 * captured from the admin page, gives the mug back with "Refund line": the back end prices it as the
 * payment sent it, the sandbox holds the mug refunded and the tea not, and the table shows the refund.
 */
import Database from 'better-sqlite3'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { adminRow, payNewOrder } from './checkout-steps.js'
import { startDemoStack, type DemoStack } from './demo-stack.js'

let stack: DemoStack
beforeAll(async () => {
  stack = await startDemoStack()
}, 60_000)
afterAll(() => stack?.close())

/** How many of each line the sandbox holds refunded for the payment. */
function refundedAtSandbox(pspReference: string): Record<string, number> {
  const db = new Database(stack.sandbox.sandbox.databasePath, { readonly: true, fileMustExist: true })
  try {
    const row = db.prepare('SELECT line_items FROM payment_orders WHERE psp_reference = ?').get(pspReference) as { line_items: string }
    return Object.fromEntries((JSON.parse(row.line_items) as Array<{ id: string; refunded: number }>).map((l) => [l.id, l.refunded]))
  } finally {
    db.close()
  }
}

describe('the admin refunds an order by line', () => {
  it('gives one line back from a captured order: that line refunded at its price, the other kept', async () => {
    const { page, problems } = await stack.page()
    const mug = () => page.locator('#qty-mug-stone').fill('1')
    const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
    const reference = await payNewOrder(page, stack.shop.url, card, { before: mug })
    const row = await adminRow(page, stack.shop.url, reference)
    const cells = (n: number) => row.locator('td').nth(n).textContent()
    // Before a capture there is nothing to give back: no line to choose.
    expect(await row.locator('select').count()).toBe(0)
    await row.getByRole('button', { name: `Capture ${reference}`, exact: true }).click()
    await expect.poll(() => cells(2)).toBe('Captured')

    const line = row.getByLabel(`Line to refund for ${reference}`)
    expect(await line.locator('option').allTextContents()).toEqual(['Sencha green tea, 100 g (€12.50)', 'Stoneware mug (€18.00)'])
    await line.selectOption('mug-stone')
    await row.getByRole('button', { name: `Refund line ${reference}`, exact: true }).click()
    await expect.poll(() => cells(2)).toBe('Partly refunded')
    expect(await cells(4)).toBe('€18.00')
    // Written once the whole page is redrawn (the problems list too), after the table.
    await expect.poll(() => page.textContent('#status')).toBe(`Refund requested for ${reference}; now: Partly refunded.`)
    const orderId = await row.getAttribute('data-order-id')
    const ledger = new Database(join(stack.shopDataDir, 'payments.sqlite'), { readonly: true })
    const { psp_reference: psp } = ledger.prepare('SELECT psp_reference FROM attempts WHERE order_id = ?').get(orderId) as {
      psp_reference: string
    }
    ledger.close()
    expect(refundedAtSandbox(psp)).toEqual({ 'tea-sencha': 0, 'mug-stone': 1 })
    expect(problems).toEqual([])
  })
})

/**
 * The demo's admin page on the back end's admin routes, in real Chromium: an order change the shop's
 * order table could not take (another process held it locked) shows as a problem, and Retry, once the
 * table is free again, delivers it and clears the problem; the order shows as paid. A payment another
 * system of the shop took for an order the demo lacks is a poll problem: Retry says it still cannot be
 * applied, Dismiss takes it off the list and keeps it as dismissed.
 */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { connectServiceClient, createSecretBox, createShopBackend, generateSecretKey } from '@card-jwe/shop-backend'
import { loadOrCreateSecretKey } from '@card-jwe/shop-backend/node'
import { openSqliteStore } from '@card-jwe/shop-backend/sqlite'
import { startDemoStack, type DemoStack } from './demo-stack.js'
import { paidWhileOrderTableLocked } from './order-table-locked.js'

let stack: DemoStack
beforeAll(async () => {
  stack = await startDemoStack()
}, 60_000)
afterAll(() => stack?.close())

/**
 * Another system of the same shop (a second app on the shop's credentials, with a ledger of its own)
 * takes a payment for an order the demo does not have: the demo's poller cannot apply its record.
 */
async function paidElsewhere(): Promise<string> {
  const ledger = new Database(join(stack.shopDataDir, 'payments.sqlite'), { readonly: true })
  const setting = (id: string) => (ledger.prepare('SELECT value FROM settings WHERE id = ?').get(id) as { value: string }).value
  const box = await createSecretBox(await loadOrCreateSecretKey(join(stack.shopDataDir, 'secrets.key')))
  const credentials = { shopId: setting('shop_id'), storeId: setting('store_id'), serviceSecret: await box.open(setting('service_secret')) }
  ledger.close()
  const dir = mkdtempSync(join(tmpdir(), 'card-jwe-elsewhere-'))
  const store = openSqliteStore({ path: join(dir, 'payments.sqlite') })
  const order = { id: 'elsewhere-1', reference: 'elsewhere-1', amount: { currency: 'EUR', value: 990 } }
  const elsewhere = createShopBackend({
    store,
    ...connectServiceClient({ baseUrl: stack.sandbox.baseUrl }),
    secretKey: generateSecretKey(),
    findOrder: (id) => (id === order.id ? order : undefined),
    onOrderChange: () => {},
    shopUrl: 'http://127.0.0.1:9',
  })
  try {
    await elsewhere.connect(credentials)
    const certificate = await importCertificate(stack.sandbox.certificatePem)
    const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
    const body = { orderId: order.id, reference: order.reference, amount: order.amount }
    const paid = await elsewhere.fetch(
      new Request('http://elsewhere.test/api/payments', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, paymentMethod: toPaymentMethod(await encryptCard(card, certificate)) }),
      }),
    )
    expect(await paid.json()).toEqual({ resultCode: 'Authorised' })
    return order.id
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('the admin page on the admin routes (Chromium)', () => {
  it('shows an order change the order table refused as a problem; Retry delivers it and clears it', async () => {
    const { order, answer } = await paidWhileOrderTableLocked(stack)
    // The payment is the ledger's: the shopper heard Authorised all the same.
    expect(answer).toEqual({ resultCode: 'Authorised' })
    expect(stack.shopLog.some((line) => line.startsWith(`onOrderChange failed for order ${order.id} `))).toBe(true)

    const { page, problems } = await stack.page()
    await page.goto(`${stack.shop.url}/admin.html`)
    await page.waitForSelector('body[data-ready="true"]')
    const orderState = () => page.locator('#orders tr', { hasText: order.reference }).locator('td').nth(2).textContent()
    expect(await orderState()).toBe('Awaiting payment')
    const problem = page.locator('#problems tr')
    await expect.poll(() => problem.count()).toBe(1)
    const cells = await problem.locator('td').allTextContents()
    expect(cells.slice(1, 4)).toEqual([order.reference, 'The order could not be updated (to authorised)', '1'])
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
  it('shows an update for an order the shop does not have; Dismiss takes it off the list, kept for the record', async () => {
    const orderId = await paidElsewhere()
    const { page, problems } = await stack.page()
    await page.goto(`${stack.shop.url}/admin.html`)
    await page.waitForSelector('body[data-ready="true"]')
    await page.getByRole('button', { name: 'Refresh from the payment service' }).click()
    const problem = page.locator('#problems tr', { hasText: orderId })
    await expect.poll(() => problem.count()).toBe(1)
    const cells = await problem.locator('td').allTextContents()
    expect(cells.slice(1, 4)).toEqual([orderId, 'No order of this shop has this id', '1'])
    // Retry: still not applicable, and said so.
    await problem.getByRole('button', { name: /^Retry/ }).click()
    await expect
      .poll(() => page.textContent('#status'))
      .toMatch(/^Payment update \d+ still not applied: No order of this shop has this id\.$/)
    await expect.poll(() => problem.locator('td').nth(3).textContent()).toBe('2')
    await problem.getByRole('button', { name: /^Dismiss/ }).click()
    await expect.poll(() => problem.count()).toBe(0)
    expect(await page.textContent('#status')).toMatch(/^Payment update \d+ dismissed: it is kept for the record and not applied\.$/)
    const listed = (await (await fetch(`${stack.shop.url}/api/admin/problems`)).json()) as {
      dismissed: { pollProblems: Array<{ record: { orderId?: string } }> }
    }
    expect(listed.dismissed.pollProblems.map((p) => p.record.orderId)).toContain(orderId)
    // Another refresh does not bring it back.
    await page.getByRole('button', { name: 'Refresh from the payment service' }).click()
    await expect.poll(() => page.textContent('#status')).toMatch(/change\(s\) from the payment service applied\.$/)
    expect(await problem.count()).toBe(0)
    expect(problems).toEqual([])
  })
})

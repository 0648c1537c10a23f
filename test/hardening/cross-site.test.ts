/**
 * Other web pages against the shop on loopback, in real Chromium: a hostile client must never get
 * in. The demo listens on 127.0.0.1 only, but any page the shop owner has open can send
 * requests there. A hostile site (`hostile.test`, mapped to 127.0.0.1 by Chromium's resolver)
 * tries to capture, refund and cancel a paid order by CSRF (a no-cors fetch and a plain HTML form),
 * then by DNS rebinding (its own name re-pointed at the shop's port) tries to read the orders.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { startDemoStack, type DemoStack } from '../e2e/demo-stack.js'

const HOSTILE = 'hostile.test'
let stack: DemoStack
let hostileSite: Server
let hostilePage = ''

interface AdminOrder {
  readonly id: number
  readonly reference: string
  readonly status: string
  readonly captured: number
  readonly refunded: number
}

async function postJson(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(stack.shop.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, json: (await response.json()) as Record<string, unknown> }
}

beforeAll(async () => {
  stack = await startDemoStack({ chromiumArgs: [`--host-resolver-rules=MAP ${HOSTILE} 127.0.0.1`] })
  hostileSite = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(hostilePage))
  await new Promise<void>((resolve) => hostileSite.listen(0, '127.0.0.1', resolve))
}, 60_000)
afterAll(async () => {
  hostileSite?.close()
  await stack?.close()
})

/** One authorised order, paid the way the page pays (card encrypted with the service's certificate). */
async function paidOrder(): Promise<AdminOrder> {
  const order = (await postJson('/api/orders', { items: [{ sku: 'tea-sencha', quantity: 2 }] })).json as {
    id: number
    reference: string
    amount: unknown
  }
  const card = findTestCard({ brand: 'mastercard', threeDSecure: 'none', outcome: 'authorised' })
  const jwe = await encryptCard(card, await importCertificate(stack.sandbox.certificatePem))
  const paid = await postJson('/api/payments', {
    orderId: order.id,
    reference: order.reference,
    amount: order.amount,
    paymentMethod: toPaymentMethod(jwe),
  })
  expect(paid.json.resultCode).toBe('Authorised')
  return orderById(order.id)
}

async function orderById(id: number): Promise<AdminOrder> {
  await stack.shop.poll()
  const orders = (await (await fetch(`${stack.shop.url}/api/admin/orders`)).json()) as AdminOrder[]
  return orders.find((o) => o.id === id)!
}

describe('other web pages against the shop on loopback (Chromium)', () => {
  it('refuses a hostile page’s capture, refund and cancel (CSRF): the order stays as it was', async () => {
    const order = await paidOrder()
    expect(order).toMatchObject({ status: 'authorised', captured: 0, refunded: 0 })
    const admin = `${stack.shop.url}/api/admin/orders/${order.id}`
    // The requests a hostile page can send without a CORS preflight: a no-cors fetch with a
    // text/plain JSON body, and a form with enctype text/plain that submits itself.
    const noCorsPost = `{ method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"value":100}' }`
    hostilePage = `<!doctype html><title>free tea</title>
      <form id="cancel" method="POST" action="${admin}/cancel" enctype="text/plain"><input name='{"x":"' value='"}'></form>
      <script>
        const send = (action) => fetch('${admin}/' + action, ${noCorsPost})
        Promise.allSettled([send('capture'), send('refund')]).then(() => document.getElementById('cancel').submit())
      </script>`
    const { page } = await stack.page()
    await page.goto(`http://${HOSTILE}:${(hostileSite.address() as AddressInfo).port}/`)
    await page.waitForURL(`${admin}/cancel`)

    const refused = (action: string) => `POST /api/admin/orders/${order.id}/${action} 403`
    await expect
      .poll(() => ['capture', 'refund', 'cancel'].filter((action) => stack.shopLog.includes(refused(action))))
      .toEqual(['capture', 'refund', 'cancel'])
    expect(await page.textContent('body')).toContain('CROSS_SITE_REQUEST')
    expect(await orderById(order.id)).toMatchObject({ status: 'authorised', captured: 0, refunded: 0 })

    // The shop's own admin page, same origin and JSON, still captures.
    const { page: own } = await stack.page()
    await own.goto(`${stack.shop.url}/admin.html`)
    const status = await own.evaluate(
      async (url) =>
        (
          await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"amount":{"currency":"EUR","value":100}}',
          })
        ).status,
      `${admin}/capture`,
    )
    expect(status).toBe(200)
    expect((await orderById(order.id)).captured).toBe(100)
  })

  it('answers nothing to its own pages under another name (DNS rebinding)', async () => {
    const order = await paidOrder()
    const { page } = await stack.page()
    // hostile.test now resolves to the shop itself: same port, so the browser treats the shop's
    // answers as the hostile site's own, same-origin and readable, unless the shop refuses the name.
    const rebound = `http://${HOSTILE}:${new URL(stack.shop.url).port}`
    const front = await page.goto(`${rebound}/`)
    expect(front?.status()).toBe(421)
    const read = await page.evaluate(async () => {
      const response = await fetch('/api/admin/orders')
      return { status: response.status, text: await response.text() }
    })
    expect(read.status).toBe(421)
    expect(JSON.parse(read.text)).toEqual({ error: 'UNKNOWN_HOST', message: 'host header: not a name of this shop' })
    expect(read.text).not.toContain(order.reference)
    // Under its own names the shop answers as before.
    for (const name of ['127.0.0.1', 'localhost']) {
      const response = await fetch(`http://${name}:${new URL(stack.shop.url).port}/api/catalogue`)
      expect(response.status, name).toBe(200)
    }
  })

  it('sends a page asked for at localhost to 127.0.0.1, where its 3-D Secure answers are posted', async () => {
    const port = new URL(stack.shop.url).port
    const { page } = await stack.page()
    await page.goto(`http://localhost:${port}/?lang=de`)
    expect(page.url()).toBe(`http://127.0.0.1:${port}/?lang=de`)
    // The API stays answered under both names (a page's fetch never follows a redirect it did not ask for).
    const answer = await fetch(`http://localhost:${port}/api/config`, { redirect: 'manual' })
    expect(answer.status).toBe(200)
  })
})

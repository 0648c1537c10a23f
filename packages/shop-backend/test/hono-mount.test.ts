// The back end mounted in a real Hono app beside the shop's own routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Hono } from 'hono'
import { mountShopBackend } from '../src/hono/index.js'
import { startShop, startWorld, type World } from './support/shop.js'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())

describe('mounted in a real Hono app', () => {
  it("serves the checkout API beside the shop's own routes, and a card payment goes through", async () => {
    const shop = await startShop(world)
    try {
      const app = new Hono()
      app.get('/', (c) => c.text('the shop'))
      mountShopBackend(app, shop.backend, { ip: () => '203.0.113.7' })
      expect(await (await app.request('/')).text()).toBe('the shop')
      const config = await app.request('/api/config')
      expect(await config.json()).toMatchObject({
        certificatePem: world.sandbox.certificatePem,
        checkoutReady: true,
        serviceReachable: true,
        paymentMethods: expect.arrayContaining(['scheme', 'ideal']),
      })
      const order = shop.createOrder()
      const paid = await app.request('/api/payments', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(await shop.cardSubmission(order)),
      })
      expect(paid.status).toBe(200)
      expect(await paid.json()).toEqual({ resultCode: 'Authorised' })
      const mismatch = await app.request('/api/payments', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...(await shop.cardSubmission(order)), amount: { currency: 'EUR', value: 1 } }),
      })
      expect(mismatch.status).toBe(422)
      const refused = await mismatch.json()
      expect(refused.details).toEqual([{ kind: 'mismatch', field: 'amount.value', rule: "must equal the order's amount.value" }])
      // The message alone names the field and rule too: a page that shows only it still tells which.
      expect(refused.message).toBe("the submission does not match the order: amount.value (must equal the order's amount.value)")
      // A card number typed into a field the page sends is named by its field, never repeated.
      const card = '4111111145551142'
      const tampered = await app.request('/api/payments', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...(await shop.cardSubmission(order)), reference: card }),
      })
      const text = await tampered.text()
      expect(JSON.parse(text)).toMatchObject({ error: 'ORDER_MISMATCH', details: [{ field: 'reference' }] })
      expect(text).not.toContain(card)
    } finally {
      await shop.close()
    }
  })

  const PAGE_MISTAKES = [
    {
      mistake: "a card's JWE under type card, not scheme: 400 naming paymentMethod.type, nothing sent, no attempt stored",
      paymentMethod: (jwe: string) => ({ type: 'card', jwe }),
      answer: { status: 400, error: 'INVALID_BODY', prefix: 'body: ', path: 'paymentMethod.type' },
      rule: "scheme: a card's jwe goes with type scheme",
      sent: 0,
      attempts: ['authorised'],
    },
    {
      mistake: "a whole card's JWE in encryptedCardNumber: 400 naming that field and where the JWE goes, nothing sent",
      paymentMethod: (jwe: string) => ({ type: 'scheme', encryptedCardNumber: jwe }),
      answer: { status: 400, error: 'INVALID_BODY', prefix: 'body: ', path: 'paymentMethod.encryptedCardNumber' },
      rule: "a card's one JWE goes in jwe; encryptedCardNumber comes with encryptedExpiryMonth and encryptedExpiryYear",
      sent: 0,
      attempts: ['authorised'],
    },
    {
      // Refused by the service, not its failure: the service's 502 named no field.
      mistake: 'a method type the service does not take: 422 naming paymentMethod.type, the attempt refused',
      paymentMethod: () => ({ type: 'paypal' }),
      answer: { status: 422, error: 'PAYMENT_METHOD_UNSUPPORTED', prefix: '', path: 'paymentMethod.type' },
      rule: "a method this shop takes: one of /api/config's paymentMethods",
      sent: 1,
      attempts: ['error', 'authorised'],
    },
  ]

  it.each(PAGE_MISTAKES)(
    '$mistake; the card as the page should send it then pays once',
    async ({ paymentMethod, answer, rule, ...rest }) => {
      const shop = await startShop(world)
      try {
        const order = shop.createOrder()
        const submission = (await shop.cardSubmission(order)) as { paymentMethod: { jwe: string } }
        const before = world.proxy.counted('POST', '/payments')
        const refused = await shop.post('/api/payments', { ...submission, paymentMethod: paymentMethod(submission.paymentMethod.jwe) })
        expect(refused).toEqual({
          status: answer.status,
          body: { error: answer.error, message: `${answer.prefix}${answer.path} (${rule})`, details: [{ path: answer.path, rule }] },
        })
        expect(world.proxy.counted('POST', '/payments') - before).toBe(rest.sent)
        expect(await shop.post('/api/payments', await shop.cardSubmission(order))).toEqual({
          status: 200,
          body: { resultCode: 'Authorised' },
        })
        expect((await shop.store.listAttempts(String(order.id))).map((a) => a.state)).toEqual(rest.attempts)
      } finally {
        await shop.close()
      }
    },
  )
})

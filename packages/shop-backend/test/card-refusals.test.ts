/** The service's refusals of a card, as the page, the merchant's log and the shop hear them. */
import { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import { createTestCertificate, findTestCard } from '@card-jwe/testkit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startShop, startWorld, type World } from './support/shop.js'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())

describe("the service's card refusals", () => {
  it("a card refusal whose service words echo the shopper's input: the page and the log get the back end's words, no value", async () => {
    const logged: string[] = []
    const shop = await startShop(world, { log: (line) => void logged.push(line) })
    const original = world.proxy.answer
    // A service that names what was typed in its refusal: the back end must not pass that on.
    world.proxy.answer = (method, path, body) => {
      const answer = JSON.parse(body.toString() || '{}') as { errorCode?: string; message?: string }
      if (method !== 'POST' || !path.endsWith('/payments') || !answer.errorCode?.startsWith('CARD_')) return body
      return Buffer.from(JSON.stringify({ ...answer, message: 'security code 737 and expiry 03/2030 do not match card 4111' }))
    }
    try {
      const order = shop.createOrder()
      const another = await importCertificate((await createTestCertificate()).certificatePem)
      const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
      const submission = { ...(await shop.cardSubmission(order)), paymentMethod: toPaymentMethod(await encryptCard(card, another)) }
      const answer = await shop.post('/api/payments', submission)
      expect(answer).toEqual({
        status: 422,
        body: {
          error: 'CARD_DATA_REFUSED',
          message: 'paymentMethod: the payment service could not decrypt the card data',
          details: { serviceCode: 'CARD_DATA_UNDECRYPTABLE' },
        },
      })
      expect(logged.length).toBeGreaterThan(0)
      expect(logged.filter((line) => /737|2030|4111/.test(line))).toEqual([])
      expect(shop.changes.filter((c) => c.orderId === order.id)).toMatchObject([{ state: 'error', errorCode: 'CARD_DATA_UNDECRYPTABLE' }])
    } finally {
      world.proxy.answer = original
      await shop.close()
    }
  })

  it("a card encrypted with another certificate: 422, the merchant's log names certificatePem, the shop hears why", async () => {
    const logged: string[] = []
    const shop = await startShop(world, { log: (line) => void logged.push(line) })
    try {
      const order = shop.createOrder()
      const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
      const another = await importCertificate((await createTestCertificate()).certificatePem)
      const submission = { ...(await shop.cardSubmission(order)), paymentMethod: toPaymentMethod(await encryptCard(card, another)) }
      expect(await shop.post('/api/payments', submission)).toMatchObject({ status: 422, body: { error: 'CARD_DATA_REFUSED' } })
      expect(logged.filter((line) => line.includes('CARD_DATA_UNDECRYPTABLE'))).toEqual([
        `order ${order.id}: the service could not decrypt the card (CARD_DATA_UNDECRYPTABLE); ` +
          "check that certificatePem is the processor's certificate for this account and environment",
      ])
      expect(shop.changes.filter((c) => c.orderId === order.id)).toMatchObject([{ state: 'error', errorCode: 'CARD_DATA_UNDECRYPTABLE' }])
      expect(await shop.post('/api/payments', await shop.cardSubmission(order))).toEqual({
        status: 200,
        body: { resultCode: 'Authorised' },
      })
      // The order's paid change carries no error code of the attempt before it.
      expect(shop.changes.filter((c) => c.orderId === order.id).at(-1)).not.toHaveProperty('errorCode')
    } finally {
      await shop.close()
    }
  })
})

/**
 * Saved cards at the checkout: the page's config lists the order's shopper's cards, and one pays
 * with its code alone, through 3-D Secure where the card asks for it; another shopper's never.
 */
import { describe, expect, it } from 'vitest'
import { findTestCard, type TestCard } from '@card-jwe/testkit/test-cards'
import { CHALLENGE_ANSWER } from '@card-jwe/sandbox'
import { encryptSecurityCode, importCertificate, toSavedCardPaymentMethod } from 'card-jwe'
import type { ShopOrder } from '../src/index.js'
import { savedCardWorld, VISA } from './support/saved-card-world.js'
import { startShop, type TestShop } from './support/shop.js'
import { answerChallenge, runThreeDSMethod } from './support/threeds.js'

const t = savedCardWorld()
const { newShopper, orderOf, saveCard, paymentsAtSandbox } = t

async function getConfig(shop: TestShop, query: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await shop.backend.fetch(new Request(`http://shop.test/api/config${query}`), { ip: '127.0.0.1' })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** What the page posts to pay with a saved card: its id and the code, encrypted alone. */
async function savedCardSubmission(order: ShopOrder, storedPaymentMethodId: string, card: TestCard = VISA) {
  const certificate = await importCertificate(t.world.sandbox.certificatePem)
  const jwe = await encryptSecurityCode({ securityCode: card.securityCode, brand: card.brand }, certificate)
  return {
    orderId: order.id,
    reference: order.reference,
    amount: order.amount,
    paymentMethod: toSavedCardPaymentMethod(storedPaymentMethodId, jwe),
  }
}

describe('saved cards at the checkout (the page)', () => {
  it("/api/config?orderId= offers the order's shopper's saved cards: id, brand, last four, expiry, nothing more", async () => {
    const shop = await startShop(t.world)
    try {
      const shopper = newShopper()
      const id = await saveCard(shop, shopper)
      const config = await getConfig(shop, `?orderId=${encodeURIComponent(String(orderOf(shop, shopper).id))}`)
      expect(config.status).toBe(200)
      expect(config.body.savedCards).toEqual([
        {
          id,
          brand: 'visa',
          lastFour: VISA.number.slice(-4),
          expiryMonth: expect.stringMatching(/^\d{2}$/),
          expiryYear: expect.stringMatching(/^\d{4}$/),
        },
      ])
      // Without an order, or for an order without a shopper: none offered.
      expect((await getConfig(shop, '')).body).not.toHaveProperty('savedCards')
      expect((await getConfig(shop, `?orderId=${orderOf(shop, undefined).id}`)).body).not.toHaveProperty('savedCards')
      // A reference with a space and a letter beyond ASCII, as a payment takes it: its card is listed.
      const spaced = `${newShopper()} Müller`
      const spacedId = await saveCard(shop, spaced)
      expect((await getConfig(shop, `?orderId=${orderOf(shop, spaced).id}`)).body.savedCards).toEqual([
        expect.objectContaining({ id: spacedId }),
      ])
      // One saved cards cannot be listed under (a line break): a new card only, never a 500.
      const broken = await getConfig(shop, `?orderId=${orderOf(shop, 'cust\n42').id}`)
      expect(broken).toMatchObject({ status: 200, body: { checkoutReady: true, serviceReachable: true } })
      expect(broken.body).not.toHaveProperty('savedCards')
      const paying = await shop.post('/api/payments', await savedCardSubmission(orderOf(shop, 'cust\n42'), spacedId))
      expect(paying).toMatchObject({ status: 422, body: { error: 'STORED_PAYMENT_METHOD_UNKNOWN' } })
      // Another shopper's order never sees them.
      expect((await getConfig(shop, `?orderId=${orderOf(shop, newShopper()).id}`)).body.savedCards).toEqual([])
      expect((await getConfig(shop, '?orderId=no-such-order')).status).toBe(404)
    } finally {
      await shop.close()
    }
  })

  it('/api/config?orderId= with an id the checkout never takes: 400 naming the rule, and findOrder never asked', async () => {
    const asked: string[] = []
    const shop = await startShop(t.world, {
      findOrder: (id) => {
        asked.push(id)
        return undefined
      },
    })
    try {
      for (const id of ['%00', 'a%2Fb', 'x'.repeat(65)]) {
        expect(await getConfig(shop, `?orderId=${id}`), id).toEqual({
          status: 400,
          body: expect.objectContaining({ error: 'INVALID_INPUT', message: 'orderId (1 to 64 characters of [A-Za-z0-9_-])' }),
        })
      }
      expect(asked).toEqual([])
    } finally {
      await shop.close()
    }
  })

  it('a stored method that is no card (a mandate) beside the card: never offered, and refused if the page names it', async () => {
    const shop = await startShop(t.world)
    const asAnswered = t.world.proxy.answer
    try {
      const shopper = newShopper()
      const id = await saveCard(shop, shopper)
      t.world.proxy.answer = (method, path, body) => {
        if (method !== 'GET' || !path.includes('/checkout-payment-methods')) return body
        const answer = JSON.parse(body.toString()) as { storedPaymentMethods?: unknown[] }
        const mandate = { id: 'Mandate12345', type: 'sepadirectdebit', name: 'SEPA Direct Debit' }
        return Buffer.from(JSON.stringify({ ...answer, storedPaymentMethods: [mandate, ...(answer.storedPaymentMethods ?? [])] }))
      }
      const order = orderOf(shop, shopper)
      const config = await getConfig(shop, `?orderId=${encodeURIComponent(String(order.id))}`)
      expect((config.body.savedCards as Array<{ id: string }>).map((card) => card.id)).toEqual([id])
      const before = paymentsAtSandbox()
      const paying = await shop.post('/api/payments', await savedCardSubmission(order, 'Mandate12345'))
      expect(paying).toMatchObject({ status: 422, body: { error: 'STORED_PAYMENT_METHOD_UNKNOWN' } })
      expect(paymentsAtSandbox() - before).toBe(0)
    } finally {
      t.world.proxy.answer = asAnswered
      await shop.close()
    }
  })

  it('a saved card of the shopper pays with its code alone; the request carries ContAuth and CardOnFile', async () => {
    const shop = await startShop(t.world)
    try {
      const { shopper, id, order } = await t.shopperWithCard(shop)
      const paid = await shop.post('/api/payments', await savedCardSubmission(order, id))
      expect(paid).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
      // The sandbox refuses a saved card without ContAuth and a model (rule between the fields): authorised says they were sent.
      expect(t.world.sandboxRows('SELECT shopper_reference AS shopper FROM payments WHERE reference = ?', order.reference)).toEqual([
        { shopper },
      ])
      expect(t.world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
    } finally {
      await shop.close()
    }
  })

  it("another shopper's saved card is refused by the field's name before anything is sent, as an unknown id is", async () => {
    const shop = await startShop(t.world)
    try {
      const owner = newShopper()
      const id = await saveCard(shop, owner)
      const before = paymentsAtSandbox()
      const theirs = orderOf(shop, newShopper())
      const refused = await shop.post('/api/payments', await savedCardSubmission(theirs, id))
      const unknown = await shop.post('/api/payments', await savedCardSubmission(orderOf(shop, newShopper()), 'NoSuchCard123'))
      expect(refused.status).toBe(422)
      expect(refused.body).toMatchObject({ error: 'STORED_PAYMENT_METHOD_UNKNOWN' })
      expect(JSON.stringify(refused.body)).toContain('paymentMethod.storedPaymentMethodId')
      expect(JSON.stringify(refused.body)).not.toContain(owner)
      // One answer for both: it never tells whether the id exists for someone else.
      expect(unknown).toEqual(refused)
      expect(paymentsAtSandbox() - before).toBe(0)
      expect(await shop.store.listAttempts(String(theirs.id))).toEqual([])
    } finally {
      await shop.close()
    }
  })

  it('a guest\'s "save my card": 422 naming storePaymentMethod, nothing sent (the service would keep the card for nobody)', async () => {
    const shop = await startShop(t.world)
    try {
      const guest = orderOf(shop, undefined)
      const before = paymentsAtSandbox()
      const saving = await shop.post('/api/payments', { ...(await shop.cardSubmission(guest)), storePaymentMethod: true })
      expect(saving.status).toBe(422)
      expect(saving.body).toMatchObject({
        error: 'ORDER_MISMATCH',
        details: [{ kind: 'invalid', path: 'storePaymentMethod', rule: 'needs a shopper: the order has no shopperReference' }],
      })
      expect(paymentsAtSandbox() - before).toBe(0)
      expect(await shop.store.listAttempts(String(guest.id))).toEqual([])
      // The same card without the box pays.
      expect(await shop.post('/api/payments', await shop.cardSubmission(guest))).toEqual({
        status: 200,
        body: { resultCode: 'Authorised' },
      })
    } finally {
      await shop.close()
    }
  })
})

const tokenOf = (body: Record<string, unknown>) => (body.action as { token: string }).token

/** The page's 3-D Secure steps after `started`: fingerprint, challenge answered; the last answer. */
async function throughThreeDS(shop: TestShop, orderId: string | number, started: Record<string, unknown>) {
  const challenge = await shop.post('/api/payment-details', {
    orderId,
    details: { threeDSResult: await runThreeDSMethod(tokenOf(started)) },
  })
  expect(challenge.body).toMatchObject({ resultCode: 'ChallengeShopper', action: { subtype: 'challenge' } })
  return shop.post('/api/payment-details', {
    orderId,
    details: { threeDSResult: await answerChallenge(tokenOf(challenge.body), CHALLENGE_ANSWER) },
  })
}

describe('a saved card that challenges, at the checkout', () => {
  it('gets the 3-D Secure actions a new card gets, and is authorised once they are answered', async () => {
    const shop = await startShop(t.world)
    try {
      const shopper = newShopper()
      const card = findTestCard({ brand: 'visa', threeDSecure: 'challenge', outcome: 'authorised' })
      const first = orderOf(shop, shopper)
      const saving = await shop.post('/api/payments', { ...(await shop.cardSubmission(first, card)), storePaymentMethod: true })
      expect((await throughThreeDS(shop, first.id, saving.body)).body).toEqual({ resultCode: 'Authorised' })
      const saved = (await shop.backend.savedCards(shopper)).find((c) => c.lastFour === card.number.slice(-4))
      expect(saved).toBeDefined()

      const order = orderOf(shop, shopper)
      const started = await shop.post('/api/payments', await savedCardSubmission(order, saved!.id, card))
      expect(started.body).toMatchObject({ resultCode: 'IdentifyShopper', action: { type: 'threeDS2', subtype: 'fingerprint' } })
      expect((await throughThreeDS(shop, order.id, started.body)).body).toEqual({ resultCode: 'Authorised' })
      expect(t.world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
    } finally {
      await shop.close()
    }
  })
})

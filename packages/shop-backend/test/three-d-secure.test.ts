import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHALLENGE_ANSWER } from '@card-jwe/sandbox'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { startShop, startWorld, type World } from './support/shop.js'
import { answerChallenge, runThreeDSMethod } from './support/threeds.js'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())

const tokenOf = (body: Record<string, unknown>) => (body.action as { token: string }).token

describe('3-D Secure 2 through the back end', () => {
  it("fingerprint then challenge: a key per step; a repeated step gets that step's answer, never a 4xx or a second call", async () => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder()
      const started = await shop.post(
        '/api/payments',
        await shop.cardSubmission(order, findTestCard({ threeDSecure: 'challenge', outcome: 'authorised' })),
      )
      expect(started.body).toMatchObject({ resultCode: 'IdentifyShopper', action: { type: 'threeDS2', subtype: 'fingerprint' } })
      const fingerprint = { orderId: order.id, details: { threeDSResult: await runThreeDSMethod(tokenOf(started.body)) } }
      const challenge = await shop.post('/api/payment-details', fingerprint)
      expect(challenge.body).toMatchObject({ resultCode: 'ChallengeShopper', action: { subtype: 'challenge' } })
      const calls = world.proxy.counted('POST', '/payment-details')
      // The fingerprint's details again (a double submit that arrived late): the challenge again.
      expect(await shop.post('/api/payment-details', fingerprint)).toEqual(challenge)
      expect(world.proxy.counted('POST', '/payment-details')).toBe(calls)
      const final = { orderId: order.id, details: { threeDSResult: await answerChallenge(tokenOf(challenge.body), CHALLENGE_ANSWER) } }
      const [first, second] = await Promise.all([shop.post('/api/payment-details', final), shop.post('/api/payment-details', final)])
      expect(first).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
      expect(second).toEqual(first)
      expect(world.proxy.counted('POST', '/payment-details')).toBe(calls + 1)
      const [attempt] = await shop.store.listAttempts(String(order.id))
      expect(attempt).toMatchObject({ state: 'authorised', detailsStep: 2 })
      expect(shop.changes.map((c) => c.state)).toEqual(['action_required', 'authorised'])
    } finally {
      await shop.close()
    }
  })

  it('a challenge failed by the shopper is a refused attempt; the order takes a new attempt with a new key', async () => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder()
      const card = findTestCard({ threeDSecure: 'challenge', outcome: 'authorised' })
      const started = await shop.post('/api/payments', await shop.cardSubmission(order, card))
      const challenge = await shop.post('/api/payment-details', {
        orderId: order.id,
        details: { threeDSResult: await runThreeDSMethod(tokenOf(started.body)) },
      })
      const failed = await shop.post('/api/payment-details', {
        orderId: order.id,
        details: { threeDSResult: await answerChallenge(tokenOf(challenge.body), 'wrong') },
      })
      expect(failed).toMatchObject({ status: 200, body: { resultCode: 'Refused' } })
      const again = await shop.post('/api/payments', await shop.cardSubmission(order))
      expect(again.body).toEqual({ resultCode: 'Authorised' })
      const attempts = await shop.store.listAttempts(String(order.id))
      expect(attempts.map((a) => a.state)).toEqual(['refused', 'authorised'])
      expect(attempts[0]!.idempotencyKey).not.toBe(attempts[1]!.idempotencyKey)
    } finally {
      await shop.close()
    }
  })
})

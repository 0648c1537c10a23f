import { afterEach, describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { approveAtBank } from './support/bank-page.js'
import { useWorld } from './support/shop.js'
import { withoutStepReferences } from './support/step-references.js'
import { answerChallenge, runThreeDSMethod } from './support/threeds.js'

const { world, shop } = useWorld()

// Beyond that, only an authorisation must carry one: a refusal may come without it, and without its echoed metadata.
function namesOnlyOnAuthorised(method: string, path: string, body: Buffer): Buffer {
  const answer = JSON.parse(withoutStepReferences(method, path, body).toString() || '{}') as Record<string, unknown>
  if (typeof answer.resultCode !== 'string' || answer.resultCode === 'Authorised') return body
  delete answer.pspReference
  delete answer.metadata
  return Buffer.from(JSON.stringify(answer))
}

const tokenOf = (body: Record<string, unknown>) => (body.action as { token: string }).token

afterEach(() => {
  world().proxy.answer = (_method, _path, body) => body
})

describe('a service that answers steps without their pspReference', () => {
  it("a bank's approval returning while a card waits at its step pays the order once, on the bank's attempt", async () => {
    world().proxy.answer = withoutStepReferences
    const s = await shop()
    const order = s.createOrder()
    const ideal = await s.post('/api/payments', s.idealSubmission(order))
    expect(ideal.body).toMatchObject({ resultCode: 'RedirectShopper' })
    const redirectResult = await approveAtBank((ideal.body.action as { url: string }).url)
    // Meanwhile, in another tab, a card that asks for a 3-D Secure step.
    const challenged = findTestCard({ threeDSecure: 'challenge', outcome: 'authorised' })
    const card = await s.post('/api/payments', await s.cardSubmission(order, challenged))
    expect(card.body.action).toBeDefined()

    // The bank's return: its details finish the iDEAL payment, which the ledger knows by no reference.
    const returned = await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })
    // The card's tab gives up its step and pays again with a card that needs none.
    const again = await s.post('/api/payments', await s.cardSubmission(order))

    expect(world().sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
    expect(returned.body).toEqual({ resultCode: 'Authorised' })
    expect(again.body).toEqual({ resultCode: 'Authorised' })
    const [bank, step, ...more] = await s.store.listAttempts(String(order.id))
    expect(more).toEqual([])
    expect(bank).toMatchObject({ methodType: 'ideal', state: 'authorised' })
    expect(bank?.pspReference).toBeDefined()
    // The card's step keeps its own payment (the feed names it too), not the bank's.
    expect(step).toMatchObject({ methodType: 'scheme', state: 'action_required' })
    expect(step?.pspReference).not.toBe(bank?.pspReference)
  })

  it("a card's refusal that names no payment or attempt leaves the bank's attempt open, and its return pays the order", async () => {
    world().proxy.answer = namesOnlyOnAuthorised
    const s = await shop()
    const order = s.createOrder()
    // A challenged card up to its last step, then, in another tab, iDEAL: the claim moves to the bank's attempt.
    const card = await s.post('/api/payments', await s.cardSubmission(order, findTestCard({ threeDSecure: 'challenge' })))
    const fingerprint = { orderId: order.id, details: { threeDSResult: await runThreeDSMethod(tokenOf(card.body)) } }
    const challenge = await s.post('/api/payment-details', fingerprint)
    expect(challenge.body).toMatchObject({ resultCode: 'ChallengeShopper' })
    const ideal = await s.post('/api/payments', s.idealSubmission(order))
    const redirectResult = await approveAtBank((ideal.body.action as { url: string }).url)

    // The card's challenge failed: refused, and the answer names no payment. The feed puts it on the card's attempt.
    const threeDSResult = await answerChallenge(tokenOf(challenge.body), 'wrong')
    const failed = await s.post('/api/payment-details', { orderId: order.id, details: { threeDSResult } })
    expect(failed.body).toMatchObject({ resultCode: 'Refused' })
    // The bank's return is sent, not answered with the card's refusal.
    const returned = await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })

    expect(returned.body).toEqual({ resultCode: 'Authorised' })
    expect(world().sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
    const attempts = await s.store.listAttempts(String(order.id))
    expect(attempts.map((a) => [a.methodType, a.state])).toEqual([
      ['scheme', 'refused'],
      ['ideal', 'authorised'],
    ])
  })

  it("a details request carries the page's details alone: no order id for its answer to echo as the payment's", async () => {
    const s = await shop()
    const order = s.createOrder()
    const ideal = await s.post('/api/payments', s.idealSubmission(order))
    const redirectResult = await approveAtBank((ideal.body.action as { url: string }).url)
    expect((await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })).body).toEqual({
      resultCode: 'Authorised',
    })
    const sent = world()
      .proxy.callsForwarded('POST', '/payment-details')
      .map((call) => JSON.parse(call.body) as unknown)
    expect(sent).toContainEqual({ details: { redirectResult } })
    expect(sent.filter((body) => JSON.stringify(body).includes('metadata'))).toEqual([])
  })

  it('each payment request names its attempt in its metadata, beside the order', async () => {
    const s = await shop()
    const order = s.createOrder()
    const sent = () =>
      world()
        .proxy.callsForwarded('POST', '/payments')
        .filter((call) => call.body.includes(String(order.id)))
    expect((await s.post('/api/payments', s.idealSubmission(order))).status).toBe(200)
    expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
    const metadata = sent().map((call) => (JSON.parse(call.body) as { metadata: unknown }).metadata)
    expect(metadata).toEqual([
      { shop_order_id: String(order.id), shop_attempt: 1 },
      { shop_order_id: String(order.id), shop_attempt: 2 },
    ])
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHALLENGE_ANSWER } from '@card-jwe/sandbox'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import type { ShopOrder } from '../src/index.js'
import { POLLER_LEASE } from '../src/poller/create-poller.js'
import { until } from './support/instances.js'
import { patientClient, startShop, startWorld, type TestShop, type World } from './support/shop.js'
import { answerChallenge, runThreeDSMethod } from './support/threeds.js'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())

const tokenOf = (body: Record<string, unknown>) => (body.action as { token: string }).token

/** A challenged card paid on `shop` up to its last step: the details the page would send once the shopper answered. */
async function lastStepOf(shop: TestShop, order: ShopOrder): Promise<{ orderId: string | number; details: { threeDSResult: string } }> {
  const started = await shop.post(
    '/api/payments',
    await shop.cardSubmission(order, findTestCard({ threeDSecure: 'challenge', outcome: 'authorised' })),
  )
  const fingerprint = { orderId: order.id, details: { threeDSResult: await runThreeDSMethod(tokenOf(started.body)) } }
  const challenge = await shop.post('/api/payment-details', fingerprint)
  return { orderId: order.id, details: { threeDSResult: await answerChallenge(tokenOf(challenge.body), CHALLENGE_ANSWER) } }
}

/**
 * Two instances of the back end on one ledger file, an order both can read, and the service slow
 * to answer each call to `slowCall` (so a second instance asks while the first's call is out).
 */
async function onTwoInstances(
  run: (shop: TestShop, other: TestShop, order: ShopOrder) => Promise<void>,
  slowCall = '/payment-details',
): Promise<void> {
  // Patient clients: the proxy holds the slow call back, and a timeout's retry must not count as a second call.
  const shop = await startShop(world, patientClient(world))
  const other = await startShop(world, { storePath: shop.storePath, secretKey: shop.secretKey, ...patientClient(world) })
  const forward = world.proxy.rule
  try {
    const order = shop.createOrder()
    other.orders.set(String(order.id), order)
    world.proxy.rule = (_method, path) => ({ action: 'forward', ...(path.endsWith(slowCall) ? { delayMs: 300 } : {}) })
    await run(shop, other, order)
  } finally {
    world.proxy.rule = forward
    await other.close()
    await shop.close()
  }
}

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

  it.each([
    { what: 'no entry', details: {} },
    { what: '21 entries', details: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`field${i}`, 'x'])) },
  ])("a step's details with $what: 400 naming details, nothing sent, and the real details answered at once", async ({ details }) => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder()
      const last = await lastStepOf(shop, order)
      const calls = world.proxy.counted('POST', '/payment-details')
      const refused = await shop.post('/api/payment-details', { orderId: order.id, details })
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({ error: 'INVALID_BODY', details: [{ path: 'details', rule: '1 to 20 entries' }] })
      expect(world.proxy.counted('POST', '/payment-details')).toBe(calls)
      // No claim left behind: the shopper's own details go now, not after a stale claim's minute.
      expect(await shop.post('/api/payment-details', last)).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
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

  it('two tabs on one order, each with its own challenged card: one payment, and both tabs hear the order is paid', async () => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder()
      const card = findTestCard({ threeDSecure: 'challenge', outcome: 'authorised' })
      // Each tab encrypts its own card: two submissions, two attempts, two payments awaiting a step.
      const tabs = []
      for (let i = 0; i < 2; i++) tabs.push(await shop.post('/api/payments', await shop.cardSubmission(order, card)))
      expect(tabs.map((t) => t.body.resultCode)).toEqual(['IdentifyShopper', 'IdentifyShopper'])
      const challenges = []
      for (const tab of tabs) {
        const threeDSResult = await runThreeDSMethod(tokenOf(tab.body))
        challenges.push(await shop.post('/api/payment-details', { orderId: order.id, details: { threeDSResult } }))
      }
      expect(challenges.map((c) => c.body.resultCode)).toEqual(['ChallengeShopper', 'ChallengeShopper'])
      const finals = await Promise.all(
        challenges.map(async (c) => ({
          orderId: order.id,
          details: { threeDSResult: await answerChallenge(tokenOf(c.body), CHALLENGE_ANSWER) },
        })),
      )
      const answers = await Promise.all(finals.map((f) => shop.post('/api/payment-details', f)))
      expect(answers).toEqual([
        { status: 200, body: { resultCode: 'Authorised' } },
        { status: 200, body: { resultCode: 'Authorised' } },
      ])
      expect(world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
      expect(world.sandboxPaymentsFor(order.reference, 'ChallengeShopper')).toBe(1) // the other tab's, never finished
      // The feed agrees (other tests' orders at this sandbox are not this shop's: problems of their own).
      expect((await shop.backend.poller.pollNow()).failed).toBeUndefined()
      const attempts = await shop.store.listAttempts(String(order.id))
      expect(attempts.map((a) => a.state).sort()).toEqual(['action_required', 'authorised'])
      expect(shop.changes.filter((c) => c.state === 'authorised')).toHaveLength(1)
    } finally {
      await shop.close()
    }
  })

  it("two instances on one ledger, two tabs' last steps at once: one call to the service, one payment, both tabs paid", () =>
    onTwoInstances(async (shop, other, order) => {
      const card = findTestCard({ threeDSecure: 'challenge', outcome: 'authorised' })
      const challenges = []
      for (const instance of [shop, other]) {
        const started = await instance.post('/api/payments', await instance.cardSubmission(order, card))
        const threeDSResult = await runThreeDSMethod(tokenOf(started.body))
        challenges.push(await instance.post('/api/payment-details', { orderId: order.id, details: { threeDSResult } }))
      }
      const finals = await Promise.all(
        challenges.map(async (c) => ({
          orderId: order.id,
          details: { threeDSResult: await answerChallenge(tokenOf(c.body), CHALLENGE_ANSWER) },
        })),
      )
      const calls = world.proxy.counted('POST', '/payment-details')
      const answers = await Promise.all([shop.post('/api/payment-details', finals[0]), other.post('/api/payment-details', finals[1])])
      expect(answers).toEqual([
        { status: 200, body: { resultCode: 'Authorised' } },
        { status: 200, body: { resultCode: 'Authorised' } },
      ])
      expect(world.proxy.counted('POST', '/payment-details') - calls).toBe(1)
      expect(world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
    }))

  it('the same last step posted to two instances at once (a double submit split by the balancer): one call, both paid', () =>
    onTwoInstances(async (shop, other, order) => {
      const final = await lastStepOf(shop, order)
      const calls = world.proxy.counted('POST', '/payment-details')
      const answers = await Promise.all([shop.post('/api/payment-details', final), other.post('/api/payment-details', final)])
      expect(answers).toEqual([
        { status: 200, body: { resultCode: 'Authorised' } },
        { status: 200, body: { resultCode: 'Authorised' } },
      ])
      expect(world.proxy.counted('POST', '/payment-details') - calls).toBe(1)
    }))

  it("a new try on another instance while one tab's last step is with the service: it waits, and hears the order is paid", () =>
    onTwoInstances(async (shop, other, order) => {
      const final = await lastStepOf(shop, order)
      const payments = world.proxy.counted('POST', '/payments')
      const sent = world.proxy.started('POST', '/payment-details')
      const finishing = shop.post('/api/payment-details', final)
      // Its claim is stored before its call leaves.
      await until('the last step at the service', () => world.proxy.started('POST', '/payment-details') > sent)
      // The other tab gives up on the challenge and pays with a card that needs no step, on another instance.
      const newTry = other.post('/api/payments', await other.cardSubmission(order))
      expect(await Promise.all([finishing, newTry])).toEqual([
        { status: 200, body: { resultCode: 'Authorised' } },
        { status: 200, body: { resultCode: 'Authorised' } },
      ])
      expect(world.proxy.counted('POST', '/payments')).toBe(payments)
      expect(world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
      expect((await shop.store.listAttempts(String(order.id))).map((a) => a.state)).toEqual(['authorised'])
    }))

  it("a step's call with no answer keeps the claim, a resend renews it; another tab takes over once stale and the feed read", async () => {
    let at = Date.now()
    const shop = await startShop(world, { now: () => new Date(at) })
    const forward = world.proxy.rule
    try {
      const order = shop.createOrder()
      const card = findTestCard({ threeDSecure: 'challenge', outcome: 'authorised' })
      const finals = []
      for (let tab = 0; tab < 2; tab++) {
        const started = await shop.post('/api/payments', await shop.cardSubmission(order, card))
        const threeDSResult = await runThreeDSMethod(tokenOf(started.body))
        const challenge = await shop.post('/api/payment-details', { orderId: order.id, details: { threeDSResult } })
        finals.push({ orderId: order.id, details: { threeDSResult: await answerChallenge(tokenOf(challenge.body), CHALLENGE_ANSWER) } })
      }
      const down = (what: string) => (_method: string, path: string) => ({
        action: path.endsWith(what) ? ('down' as const) : ('forward' as const),
      })
      // Tab 1's last step never reaches the service; 50 s later its resend does not either.
      world.proxy.rule = down('/payment-details')
      expect((await shop.post('/api/payment-details', finals[0])).body).toMatchObject({ error: 'OUTCOME_PENDING' })
      at += 50_000
      expect((await shop.post('/api/payment-details', finals[0])).body).toMatchObject({ error: 'OUTCOME_PENDING' })
      world.proxy.rule = forward
      // 65 s after the first call, 15 s after the resend: the claim is the resend's, still fresh.
      at += 15_000
      expect(await shop.post('/api/payment-details', finals[1])).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
      // Stale now, but the feed cannot be read: still not taken over.
      at += 61_000
      world.proxy.rule = down('/updated-payments')
      expect(await shop.post('/api/payment-details', finals[1])).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
      world.proxy.rule = forward
      // Stale, and the feed shows nothing for the order: tab 2's step goes, and is the one payment.
      expect(await shop.post('/api/payment-details', finals[1])).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
      expect(await shop.post('/api/payment-details', finals[0])).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
      expect(world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
    } finally {
      world.proxy.rule = forward
      await shop.close()
    }
  })

  it("a step's details on one instance while a new payment's call is out on another: they wait for it, one payment", () =>
    onTwoInstances(async (shop, other, order) => {
      const final = await lastStepOf(shop, order)
      const detailsCalls = world.proxy.counted('POST', '/payment-details')
      // The other tab gives up on the challenge and pays with a card that needs no step; its call is slow.
      const sent = world.proxy.started('POST', '/payments')
      const newTry = other.post('/api/payments', await other.cardSubmission(order))
      // Its attempt is stored before its call leaves.
      await until('the new payment at the service', () => world.proxy.started('POST', '/payments') > sent)
      const finishing = shop.post('/api/payment-details', final)
      expect(await Promise.all([newTry, finishing])).toEqual([
        { status: 200, body: { resultCode: 'Authorised' } },
        { status: 200, body: { resultCode: 'Authorised' } },
      ])
      expect(world.proxy.counted('POST', '/payment-details')).toBe(detailsCalls)
      expect(world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
    }, '/payments'))

  it('a new card after the merchant cancelled an earlier attempt, while a later one waits at a step: 409, nothing sent', async () => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder()
      // Two tabs, each at its challenge: attempt 1's answer comes back after attempt 2 was made.
      const first = await lastStepOf(shop, order)
      await lastStepOf(shop, order)
      expect((await shop.post('/api/payment-details', first)).body).toEqual({ resultCode: 'Authorised' })
      await shop.backend.cancel(order.id)
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id))).map((a) => a.state)).toEqual(['cancelled', 'action_required'])
      const calls = world.proxy.counted('POST', '/payments')
      expect(await shop.post('/api/payments', await shop.cardSubmission(order))).toMatchObject({
        status: 409,
        body: { error: 'ORDER_NOT_PAYABLE' },
      })
      expect(world.proxy.counted('POST', '/payments')).toBe(calls)
    } finally {
      await shop.close()
    }
  })

  it("a stale claim's feed check counts a problem the lease holder commits while it looks: 503, the details not sent", async () => {
    let aheadMs = 0
    const now = () => new Date(Date.now() + aheadMs)
    let holderPolls: (() => Promise<unknown>) | undefined
    const shop = await startShop(world, {
      now,
      // The lease holder commits a page between this instance's reads of the problems and the feed.
      wrapStore: (store) => ({
        ...store,
        listProblems: async (at?: string) => {
          const problems = await store.listProblems(at)
          const poll = holderPolls
          holderPolls = undefined
          await poll?.()
          return problems
        },
      }),
    })
    const holder = await startShop(world, { storePath: shop.storePath, secretKey: shop.secretKey, now })
    const elsewhere = await startShop(world)
    const forward = world.proxy.rule
    try {
      const order = shop.createOrder()
      holder.orders.set(String(order.id), order)
      elsewhere.orders.set(String(order.id), order)
      const started = await shop.post(
        '/api/payments',
        await shop.cardSubmission(order, findTestCard({ threeDSecure: 'challenge', outcome: 'authorised' })),
      )
      // The fingerprint step's answer is lost: its claim stays on the attempt.
      world.proxy.rule = (method, path) => ({ action: method === 'POST' && path.endsWith('/payment-details') ? 'lose' : 'forward' })
      const fingerprint = { orderId: order.id, details: { threeDSResult: await runThreeDSMethod(tokenOf(started.body)) } }
      expect((await shop.post('/api/payment-details', fingerprint)).status).toBe(503)
      world.proxy.rule = forward
      // A payment for the same order id from another ledger: news about the order this ledger keeps as a problem.
      expect((await elsewhere.post('/api/payments', await elsewhere.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
      const now0 = now().toISOString()
      expect((await holder.store.acquireLease(POLLER_LEASE, holder.backend.poller.holder, 600_000, now0)).acquired).toBe(true)
      holderPolls = () => holder.backend.poller.pollNow()
      aheadMs = 61_000
      const calls = world.proxy.counted('POST', '/payment-details')
      const other = { orderId: order.id, details: { threeDSResult: 'another-window' } }
      expect(await shop.post('/api/payment-details', other)).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
      expect(holderPolls).toBeUndefined()
      expect(world.proxy.counted('POST', '/payment-details')).toBe(calls)
    } finally {
      world.proxy.rule = forward
      await elsewhere.close()
      await holder.close()
      await shop.close()
    }
  })

  it("a tab's step finished after the merchant cancelled the order's payment from another tab: 409, nothing sent", async () => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder()
      const final = await lastStepOf(shop, order)
      expect((await shop.post('/api/payments', await shop.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
      await shop.backend.cancel(order.id)
      await shop.backend.poller.pollNow()
      expect((await shop.store.listAttempts(String(order.id))).map((a) => a.state)).toEqual(['action_required', 'cancelled'])
      const calls = world.proxy.counted('POST', '/payment-details')
      expect(await shop.post('/api/payment-details', final)).toMatchObject({ status: 409, body: { error: 'ORDER_NOT_PAYABLE' } })
      expect(world.proxy.counted('POST', '/payment-details')).toBe(calls)
    } finally {
      await shop.close()
    }
  })

  it('details for an order whose card the service could not read: 409 in words ("failed"), nothing sent', async () => {
    const shop = await startShop(world)
    try {
      const order = shop.createOrder()
      const submission = (await shop.cardSubmission(order)) as { paymentMethod: { jwe: string } }
      const parts = submission.paymentMethod.jwe.split('.')
      parts[3] = (parts[3]!.startsWith('A') ? 'B' : 'A') + parts[3]!.slice(1)
      const unreadable = { ...submission, paymentMethod: { ...submission.paymentMethod, jwe: parts.join('.') } }
      expect(await shop.post('/api/payments', unreadable)).toMatchObject({ status: 422, body: { error: 'CARD_DATA_REFUSED' } })
      const calls = world.proxy.counted('POST', '/payment-details')
      const answer = await shop.post('/api/payment-details', {
        orderId: order.id,
        details: { threeDSResult: 'eyJ0cmFuc1N0YXR1cyI6IlkifQ' },
      })
      expect(answer).toMatchObject({ status: 409, body: { error: 'NOT_AWAITING_DETAILS' } })
      expect(answer.body.message).toBe("orderId: the order's payment failed, not waiting for a shopper step")
      expect(world.proxy.counted('POST', '/payment-details')).toBe(calls)
    } finally {
      await shop.close()
    }
  })
})

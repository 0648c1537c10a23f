import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createServiceClient } from '@card-jwe/service-client'
import { type AttemptRecord, connectServiceClient, type ShopOrder } from '../src/index.js'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { type Gate, gate } from './support/gate.js'
import type { ServiceProxy } from './support/service-proxy.js'
import { approveAtBank, decideAtBank } from './support/bank-page.js'
import { patientClient, startShop, startWorld, type TestShop, type World } from './support/shop.js'

let world: World
const shops: TestShop[] = []
beforeAll(async () => {
  world = await startWorld()
  // These days' service keeps no details answer by its key (the sandbox does, as the widely used APIs
  // do, but not forever): a details call sent again is told PAYMENT_ALREADY_FINAL, and the back end
  // must learn the outcome from the feed. The test that forwards the key sets it back.
  world.proxy.forwardsKey = (method, path) => !isDetailsCall(method, path)
})
afterEach(async () => {
  world.proxy.mode = 'pass'
  world.proxy.matches = () => true
  while (shops.length > 0) await shops.pop()!.close()
})
afterAll(() => world.close())

async function shop(...args: Parameters<typeof startShop> extends [World, ...infer Rest] ? Rest : never) {
  const started = await startShop(world, ...args)
  shops.push(started)
  return started
}

const paymentsBefore = () => world.sandboxPayments(world.sandbox.readyMadeShop.shopId)
const isPaymentCall = (method: string, path: string) => method === 'POST' && path.endsWith('/payments')
const isDetailsCall = (method: string, path: string) => method === 'POST' && path.endsWith('/payment-details')
const attemptsOf = (s: TestShop, orderId: string | number) => s.store.listAttempts(String(orderId))
/** A proxy rule: payment calls wait on the way until the gate opens (the service has not seen them). */
const paymentCallsHeldUntil =
  (held: Gate): ServiceProxy['rule'] =>
  (method, path) => ({ action: 'forward', ...(isPaymentCall(method, path) ? { holdUntil: held.opened } : {}) })
const methodOf = (call: { readonly body: string }) => (JSON.parse(call.body) as { paymentMethod: { type: string } }).paymentMethod.type
/** The feed's record of one payment, changed on its way to the shop (the service reporting what it did after all). */
function feedSaysOf(pspReference: string | undefined, fields: Record<string, unknown> | ((record: Record<string, unknown>) => object)) {
  world.proxy.answer = (_method, path, body) => {
    if (!path.endsWith('/updated-payments')) return body
    const page = JSON.parse(body.toString()) as { payments: Array<Record<string, unknown>> }
    for (const record of page.payments)
      if (record.pspReference === pspReference) Object.assign(record, typeof fields === 'function' ? fields(record) : fields)
    return Buffer.from(JSON.stringify(page))
  }
}

/** A shop whose first payment for a new order (a card unless said) reached the service and lost its answer (503). */
async function answerLost(submission: (s: TestShop, order: ShopOrder) => Promise<object> | object = (s, order) => s.cardSubmission(order)) {
  const s = await shop()
  const order = s.createOrder()
  world.proxy.matches = isPaymentCall
  world.proxy.mode = 'lose-answers'
  expect((await s.post('/api/payments', await submission(s, order))).status).toBe(503)
  world.proxy.mode = 'pass'
  return { s, order }
}

/** An iDEAL payment of a new order, approved at the bank, whose payment-details answer was lost (503). */
async function detailsAnswerLost(s: TestShop) {
  const order = s.createOrder()
  const started = await s.post('/api/payments', s.idealSubmission(order))
  const redirectResult = await approveAtBank((started.body.action as { url: string }).url)
  world.proxy.matches = (method, path) => method === 'POST' && path.endsWith('/payment-details')
  world.proxy.mode = 'lose-answers'
  const details = { orderId: order.id, details: { redirectResult } }
  // Back from the bank, the step may have paid: "being confirmed", never Pay again.
  expect(await s.post('/api/payment-details', details)).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
  world.proxy.mode = 'pass'
  return { order, details }
}

/** An order whose iDEAL payment (attempt 1) the shopper approved at the bank after a card was refused in another tab (attempt 2). */
async function bankApprovedAfterOtherTabRefused() {
  const s = await shop()
  const order = s.createOrder()
  const started = await s.post('/api/payments', s.idealSubmission(order))
  const refusedCard = findTestCard({ threeDSecure: 'none', outcome: 'refused' })
  expect((await s.post('/api/payments', await s.cardSubmission(order, refusedCard))).body).toMatchObject({ resultCode: 'Refused' })
  const redirectResult = await approveAtBank((started.body.action as { url: string }).url)
  return { s, order, redirectResult }
}

describe('on a bad day: the shopper submits twice', () => {
  it('two identical card submissions at once make one service payment, and both get the same answer', async () => {
    const s = await shop()
    const order = s.createOrder()
    const submission = await s.cardSubmission(order)
    const before = paymentsBefore()
    const [first, second] = await Promise.all([s.post('/api/payments', submission), s.post('/api/payments', submission)])
    expect(first).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(second).toEqual(first)
    expect(paymentsBefore() - before).toBe(1)
    expect(await attemptsOf(s, order.id)).toHaveLength(1)
  })

  it('two shop processes on one ledger file (no shared lock): the same submission at once is still one payment, one attempt', async () => {
    const a = await shop()
    const b = await shop({ storePath: a.storePath, secretKey: a.secretKey })
    const order = a.createOrder()
    b.orders.set(String(order.id), order)
    const submission = await a.cardSubmission(order)
    const before = paymentsBefore()
    const [first, second] = await Promise.all([a.post('/api/payments', submission), b.post('/api/payments', submission)])
    expect(first).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(second).toEqual(first)
    expect(paymentsBefore() - before).toBe(1)
    expect(await attemptsOf(a, order.id)).toHaveLength(1)
  })

  it('two identical iDEAL starts at once make one payment and give the same redirect', async () => {
    const s = await shop()
    const order = s.createOrder()
    const before = paymentsBefore()
    const [first, second] = await Promise.all([
      s.post('/api/payments', s.idealSubmission(order)),
      s.post('/api/payments', s.idealSubmission(order)),
    ])
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ resultCode: 'RedirectShopper', action: { type: 'redirect' } })
    expect(second).toEqual(first)
    expect(paymentsBefore() - before).toBe(1)
  })

  it('iDEAL again right after Cancel at the bank starts a new bank visit, not the cancelled answer again', async () => {
    const s = await shop()
    const order = s.createOrder()
    const started = await s.post('/api/payments', s.idealSubmission(order))
    const redirectResult = await decideAtBank((started.body.action as { url: string }).url, 'cancel')
    const returned = await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })
    expect(returned.body).toEqual({ resultCode: 'Cancelled' })

    // Within the window that turns a double click into the first answer: the shopper chose iDEAL again.
    const again = await s.post('/api/payments', s.idealSubmission(order))

    expect(again.body).toMatchObject({ resultCode: 'RedirectShopper', action: { type: 'redirect' } })
    expect((await s.store.listAttempts(String(order.id))).map((a) => a.state)).toEqual(['refused', 'action_required'])
  })

  it('Pay again on a paid order answers Authorised from the ledger, without a second payment', async () => {
    const s = await shop()
    const order = s.createOrder()
    expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
    const before = paymentsBefore()
    const again = await s.post('/api/payments', await s.cardSubmission(order))
    expect(again).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(paymentsBefore()).toBe(before)
  })

  it('an order id that names another order now (numbered afresh after a restart): 409 ORDER_CHANGED, not the old Authorised', async () => {
    const s = await shop()
    const order = s.createOrder(2800)
    expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
    // The shop restarted with its orders in memory: the same id is a new order, for another amount.
    const renumbered = { ...order, reference: `${order.reference}-new`, amount: { currency: 'EUR', value: 1450 } }
    s.orders.set(String(order.id), renumbered)
    const before = paymentsBefore()
    const again = await s.post('/api/payments', await s.cardSubmission(renumbered))
    expect(again).toMatchObject({ status: 409, body: { error: 'ORDER_CHANGED' } })
    expect(String(again.body.message)).toMatch(/^orderId: /)
    expect(paymentsBefore()).toBe(before)
  })

  it("a new try after a refusal waits while another window's step is out under the order's claim, and sends nothing", async () => {
    const s = await shop()
    const order = s.createOrder()
    const refusedCard = findTestCard({ threeDSecure: 'none', outcome: 'refused' })
    expect((await s.post('/api/payments', await s.cardSubmission(order, refusedCard))).body).toMatchObject({ resultCode: 'Refused' })
    // Another window's details call is out under the latest attempt's claim (as submitDetails leaves it).
    const [latest] = await attemptsOf(s, order.id)
    await s.store.compareAndSet(latest!.id, latest!.version, {
      detailsKey: `${latest!.idempotencyKey}-d1-0123456789ab`,
      updatedAt: new Date().toISOString(),
    })
    const before = paymentsBefore()
    expect(await s.post('/api/payments', await s.cardSubmission(order))).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
    expect(paymentsBefore()).toBe(before)
    expect(await attemptsOf(s, order.id)).toHaveLength(1)
  })

  it('two identical payment-details at once: one /details call, both answered Authorised', async () => {
    const s = await shop()
    const order = s.createOrder()
    const started = await s.post('/api/payments', s.idealSubmission(order))
    const redirectResult = await approveAtBank((started.body.action as { url: string }).url)
    const detailsBefore = world.proxy.counted('POST', '/payment-details')
    const details = { orderId: order.id, details: { redirectResult } }
    const [first, second] = await Promise.all([s.post('/api/payment-details', details), s.post('/api/payment-details', details)])
    expect(first).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(second).toEqual(first)
    expect(world.proxy.counted('POST', '/payment-details') - detailsBefore).toBe(1)
  })

  it('a bank redirect finished after another card was refused in a second tab: its details go, and the order is paid', async () => {
    const { s, order, redirectResult } = await bankApprovedAfterOtherTabRefused()
    // The shopper comes back from the bank: not "Refused" from the other card.
    const back = await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })
    expect(back).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect((await attemptsOf(s, order.id)).map((a) => a.state)).toEqual(['authorised', 'refused'])
  })

  it("a bank's lost details answer after another tab's refusal, the feed unread: being confirmed, not that card's Refused", async () => {
    const { s, order, redirectResult } = await bankApprovedAfterOtherTabRefused()
    // The first details call authorises at the service and its answer is lost; the client's retry hears
    // PAYMENT_ALREADY_FINAL. The feed cannot be read meanwhile, so the ledger does not know yet.
    let detailsCalls = 0
    const asRuled = world.proxy.rule
    world.proxy.rule = (method, path) => {
      if (method === 'POST' && path.endsWith('/payment-details')) return { action: detailsCalls++ === 0 ? 'lose' : 'forward' }
      return { action: path.endsWith('/updated-payments') ? 'down' : 'forward' }
    }
    const details = { orderId: order.id, details: { redirectResult } }
    expect(await s.post('/api/payment-details', details)).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
    expect(detailsCalls).toBe(2)
    // Told "being confirmed", the shopper pays again: nothing goes while the order's outcome is open.
    const before = paymentsBefore()
    expect((await s.post('/api/payments', await s.cardSubmission(order))).status).toBe(503)
    expect(paymentsBefore()).toBe(before)
    // The feed back: the bank's payment pays the order, and the return page hears it.
    world.proxy.rule = asRuled
    await s.backend.poller.pollNow()
    expect(await s.post('/api/payment-details', details)).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect((await attemptsOf(s, order.id)).map((a) => a.state)).toEqual(['authorised', 'refused'])
    expect(paymentsBefore()).toBe(before)
  })

  it('a bank step the service confirms later (Received): being confirmed, never the bank again, never a second payment', async () => {
    const s = await shop()
    const order = s.createOrder()
    const started = await s.post('/api/payments', s.idealSubmission(order))
    const redirectResult = await approveAtBank((started.body.action as { url: string }).url)
    const asAnswered = world.proxy.answer
    // The service took the shopper's step and confirms the payment later, as it may for a bank's.
    world.proxy.answer = (method, path, body) => {
      if (method !== 'POST' || !path.endsWith('/payment-details')) return body
      const { pspReference } = JSON.parse(body.toString()) as { pspReference: string }
      return Buffer.from(JSON.stringify({ resultCode: 'Received', pspReference }))
    }
    const details = { orderId: order.id, details: { redirectResult } }
    try {
      expect(await s.post('/api/payment-details', details)).toEqual({ status: 200, body: { resultCode: 'Received' } })
    } finally {
      world.proxy.answer = asAnswered
    }
    expect((await attemptsOf(s, order.id)).map((a) => a.state)).toEqual(['confirming'])
    // The return page reloaded: the same answer, from the ledger.
    const detailsBefore = world.proxy.counted('POST', '/payment-details')
    expect(await s.post('/api/payment-details', details)).toEqual({ status: 200, body: { resultCode: 'Received' } })
    expect(world.proxy.counted('POST', '/payment-details')).toBe(detailsBefore)
    // Pay again, in another tab or with a card: nothing goes while the bank's payment is confirmed.
    const before = paymentsBefore()
    expect(await s.post('/api/payments', await s.cardSubmission(order))).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
    // The same iDEAL start again is a repeat: its stored answer, "being confirmed" on the page.
    expect(await s.post('/api/payments', s.idealSubmission(order))).toEqual({ status: 200, body: { resultCode: 'Received' } })
    expect(paymentsBefore()).toBe(before)
    expect(await attemptsOf(s, order.id)).toHaveLength(1)
    // The feed confirms it: the order is paid, and the return page hears so.
    await s.backend.poller.pollNow()
    expect((await attemptsOf(s, order.id)).map((a) => a.state)).toEqual(['authorised'])
    expect(await s.post('/api/payment-details', details)).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
  })

  it("a bank step being confirmed beside another tab's refused card: Pay again sends nothing until the feed ends it", async () => {
    const { s, order, redirectResult } = await bankApprovedAfterOtherTabRefused()
    const asAnswered = world.proxy.answer
    world.proxy.answer = (method, path, body) => {
      if (method !== 'POST' || !path.endsWith('/payment-details')) return body
      const { pspReference } = JSON.parse(body.toString()) as { pspReference: string }
      return Buffer.from(JSON.stringify({ resultCode: 'Received', pspReference }))
    }
    try {
      const back = await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })
      expect(back).toEqual({ status: 200, body: { resultCode: 'Received' } })
    } finally {
      world.proxy.answer = asAnswered
    }
    expect((await attemptsOf(s, order.id)).map((a) => a.state)).toEqual(['confirming', 'refused'])
    // The first tab pays again after its card's refusal: the latest attempt failed, yet nothing goes.
    const before = paymentsBefore()
    expect(await s.post('/api/payments', await s.cardSubmission(order))).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
    expect(paymentsBefore()).toBe(before)
    await s.backend.poller.pollNow()
    expect((await attemptsOf(s, order.id)).map((a) => a.state)).toEqual(['authorised', 'refused'])
    expect(paymentsBefore()).toBe(before)
  })

  it('a reload of the return page after success answers the stored Authorised (200), with no second /details call', async () => {
    const s = await shop()
    const order = s.createOrder()
    const started = await s.post('/api/payments', s.idealSubmission(order))
    const redirectResult = await approveAtBank((started.body.action as { url: string }).url)
    const details = { orderId: order.id, details: { redirectResult } }
    expect(await s.post('/api/payment-details', details)).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    const detailsBefore = world.proxy.counted('POST', '/payment-details')
    // The demo answered this with 502 SERVICE_ERROR (PAYMENT_ALREADY_FINAL), later 409.
    expect(await s.post('/api/payment-details', details)).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult: 'something-else' } })).toEqual({
      status: 200,
      body: { resultCode: 'Authorised' },
    })
    expect(world.proxy.counted('POST', '/payment-details')).toBe(detailsBefore)
  })
})

describe('on a bad day: the network', () => {
  it('the service acted but its answer was lost: the attempt stays pending with its key, and Pay again gets the one payment', async () => {
    const s = await shop()
    const order = s.createOrder()
    const before = paymentsBefore()
    world.proxy.matches = isPaymentCall
    world.proxy.mode = 'lose-answers'
    const lost = await s.post('/api/payments', await s.cardSubmission(order))
    expect(lost).toMatchObject({ status: 503, body: { error: 'SERVICE_UNREACHABLE' } })
    const [pending] = await attemptsOf(s, order.id)
    expect(pending).toMatchObject({ state: 'pending', number: 1 })
    expect(pending!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
    expect(paymentsBefore() - before).toBe(1)
    // Heard before the 503 answered, as every new state is: the shop's order shows the payment in progress.
    expect(s.changes.filter((c) => c.orderId === String(order.id))).toEqual([
      expect.objectContaining({ state: 'pending', previousState: 'created', attempt: 1, version: pending!.version }),
    ])

    world.proxy.mode = 'pass'
    // The page encrypts afresh at each Pay: a new JWE, the same attempt and key.
    const again = await s.post('/api/payments', await s.cardSubmission(order))
    expect(again).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(paymentsBefore() - before).toBe(1)
    const attempts = await attemptsOf(s, order.id)
    expect(attempts).toHaveLength(1)
    expect(attempts[0]).toMatchObject({
      state: 'authorised',
      idempotencyKey: pending!.idempotencyKey,
      pspReference: expect.stringMatching(/^[0-9A-Z]{16}$/),
    })
  })

  it.each([
    ['an empty pspReference', '{"resultCode":"Authorised","pspReference":""}'],
    ['Authorised without its pspReference', '{"resultCode":"Authorised"}'],
  ])(
    'the service took the payment and its 200 could not be read (%s): the outcome is open, never a refusal; Pay again pays once',
    async (_, unreadable) => {
      const lines: string[] = []
      const s = await shop({ log: (line) => lines.push(line) })
      const order = s.createOrder()
      const before = paymentsBefore()
      const asAnswered = world.proxy.answer
      // A 200 whose body breaks the answer's schema, as a faulty gateway might give: no payment to capture by.
      world.proxy.answer = (method, path, body) => (isPaymentCall(method, path) ? Buffer.from(unreadable) : body)
      try {
        const unread = await s.post('/api/payments', await s.cardSubmission(order))
        // "Being confirmed", not "could not be reached": the service took it.
        expect(unread).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
        // The merchant's log says what happened: an answer came, not "no answer".
        expect(lines.filter((line) => line.includes('stays open'))).toEqual([
          expect.stringContaining(`order ${order.id}: attempt 1 stays open (an answer that could not be read, INVALID_RESPONSE)`),
        ])
      } finally {
        world.proxy.answer = asAnswered
      }
      expect((await attemptsOf(s, order.id)).map((a) => a.state)).toEqual(['pending'])
      expect(await s.post('/api/payments', await s.cardSubmission(order))).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
      expect(paymentsBefore() - before).toBe(1)
      expect((await attemptsOf(s, order.id)).map((a) => a.state)).toEqual(['authorised'])
    },
  )

  it('answer lost, shopper gone: the poller finds the payment by its metadata and the order becomes authorised', async () => {
    const { s, order } = await answerLost()
    const report = await s.backend.poller.pollNow()
    expect(report.failed).toBeUndefined()
    const [attempt] = await attemptsOf(s, order.id)
    expect(attempt).toMatchObject({ state: 'authorised', pspReference: expect.stringMatching(/^[0-9A-Z]{16}$/) })
    expect(s.changes.filter((c) => c.orderId === String(order.id))).toEqual([
      expect.objectContaining({ state: 'pending', previousState: 'created' }),
      expect.objectContaining({ state: 'authorised', previousState: 'pending', pspReference: attempt!.pspReference, amount: order.amount }),
    ])
    // The shopper comes back after all: the stored result, no second payment.
    const before = paymentsBefore()
    expect(await s.post('/api/payments', await s.cardSubmission(order))).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(paymentsBefore()).toBe(before)
  })

  it('answer lost, then another method: sent under the same key, refused there (the key names the card); the card pays once', async () => {
    const before = paymentsBefore()
    const { s, order } = await answerLost()
    const [open] = await attemptsOf(s, order.id)
    const calls = world.proxy.callsForwarded('POST', '/payments').length
    expect(await s.post('/api/payments', s.idealSubmission(order))).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
    const sent = world.proxy.callsForwarded('POST', '/payments').slice(calls)
    expect(sent.map((call) => [call.key, methodOf(call)])).toEqual([[open!.idempotencyKey, 'ideal']])
    expect(paymentsBefore() - before).toBe(1)
    expect(await attemptsOf(s, order.id)).toEqual([expect.objectContaining({ state: 'pending', methodType: 'scheme' })])
    expect(await s.post('/api/payments', await s.cardSubmission(order))).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect((await attemptsOf(s, order.id)).map((a) => a.state)).toEqual(['authorised'])
    expect(paymentsBefore() - before).toBe(1)
  })

  it('a card call held on the way, then iDEAL: iDEAL is the one payment under the key, the card arriving late is refused', async () => {
    const s = await shop()
    const order = s.createOrder()
    const before = paymentsBefore()
    const asRuled = world.proxy.rule
    const asAnswered = world.proxy.answer
    const held = gate()
    // What the sandbox answered each payment call, heard or not by the shop.
    const answers: string[] = []
    world.proxy.answer = (method, path, body) => {
      if (isPaymentCall(method, path)) answers.push(body.toString('utf8'))
      return body
    }
    try {
      const startedBefore = world.proxy.started('POST', '/payments')
      // The card's request (and the client's retries) wait on the way: the service has seen none of them.
      world.proxy.rule = paymentCallsHeldUntil(held)
      const card = await s.post('/api/payments', await s.cardSubmission(order))
      world.proxy.rule = asRuled
      expect(card).toMatchObject({ status: 503, body: { error: 'SERVICE_UNREACHABLE' } })
      const cardCalls = world.proxy.started('POST', '/payments') - startedBefore
      const [open] = await attemptsOf(s, order.id)
      expect(open).toMatchObject({ state: 'pending', methodType: 'scheme' })
      expect(answers).toEqual([])

      const ideal = await s.post('/api/payments', s.idealSubmission(order))
      expect(ideal).toMatchObject({ status: 200, body: { resultCode: 'RedirectShopper' } })
      expect(await attemptsOf(s, order.id)).toEqual([
        expect.objectContaining({ idempotencyKey: open!.idempotencyKey, methodType: 'ideal', state: 'action_required' }),
      ])
      const idealCall = world.proxy.callsForwarded('POST', '/payments').at(-1)!
      expect([idealCall.key, methodOf(idealCall)]).toEqual([open!.idempotencyKey, 'ideal'])

      // The card's requests arrive now, under the key that names the iDEAL payment: each refused, nothing charged.
      held.open()
      const refused = () => answers.filter((answer) => JSON.parse(answer).errorCode === 'IDEMPOTENCY_KEY_REUSED')
      await vi.waitFor(() => expect(refused()).toHaveLength(cardCalls), { timeout: 5_000 })
      expect(answers).toHaveLength(cardCalls + 1)
      expect(paymentsBefore() - before).toBe(1)

      const redirectResult = await approveAtBank((ideal.body.action as { url: string }).url)
      expect(await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })).toEqual({
        status: 200,
        body: { resultCode: 'Authorised' },
      })
      expect(await attemptsOf(s, order.id)).toEqual([expect.objectContaining({ methodType: 'ideal', state: 'authorised' })])
      expect(paymentsBefore() - before).toBe(1)
    } finally {
      world.proxy.rule = asRuled
      world.proxy.answer = asAnswered
      held.open()
    }
  })

  it('two instances: iDEAL goes under the key while the card call is on the way; the card hears "being confirmed"', async () => {
    const a = await shop(patientClient(world))
    const b = await shop({ storePath: a.storePath, secretKey: a.secretKey })
    const order = a.createOrder()
    b.orders.set(String(order.id), order)
    const before = paymentsBefore()
    const asRuled = world.proxy.rule
    const held = gate()
    try {
      const startedBefore = world.proxy.started('POST', '/payments')
      world.proxy.rule = paymentCallsHeldUntil(held)
      const card = a.post('/api/payments', await a.cardSubmission(order))
      await vi.waitFor(() => expect(world.proxy.started('POST', '/payments')).toBe(startedBefore + 1), { timeout: 5_000 })
      world.proxy.rule = asRuled
      // b finds a's attempt with no answer yet: iDEAL goes under its key and reaches the service first.
      expect(await b.post('/api/payments', b.idealSubmission(order))).toMatchObject({
        status: 200,
        body: { resultCode: 'RedirectShopper' },
      })
      held.open()
      // The card's first call is refused under the key (it names iDEAL now): not "refused" to the page, the order is at a step.
      expect(await card).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
    } finally {
      world.proxy.rule = asRuled
      held.open()
    }
    expect(paymentsBefore() - before).toBe(1)
    expect(await attemptsOf(a, order.id)).toEqual([expect.objectContaining({ methodType: 'ideal', state: 'action_required' })])
  })

  it("two instances: one's answer lost while the other sends the payment again: the order hears pending before either ends", async () => {
    const a = await shop()
    const b = await shop({ storePath: a.storePath, secretKey: a.secretKey, ...patientClient(world) })
    const order = a.createOrder()
    b.orders.set(String(order.id), order)
    const asRuled = world.proxy.rule
    const held = gate()
    try {
      const reachedBefore = world.proxy.counted('POST', '/payments')
      // a's first call reaches the service and its answer is lost; a's retries and b's resend wait on the way.
      let paymentCalls = 0
      world.proxy.rule = (method, path) =>
        !isPaymentCall(method, path)
          ? { action: 'forward' }
          : paymentCalls++ === 0
            ? { action: 'lose' }
            : { action: 'forward', holdUntil: held.opened }
      const lost = a.post('/api/payments', await a.cardSubmission(order))
      await vi.waitFor(() => expect(world.proxy.counted('POST', '/payments')).toBe(reachedBefore + 1), { timeout: 5_000 })
      const resent = b.post('/api/payments', await b.cardSubmission(order))
      // b moved the attempt's version on while a still waits for an answer: a's mark must read it again.
      await vi.waitFor(async () => expect((await attemptsOf(a, order.id))[0]).toMatchObject({ version: 2, state: 'created' }), {
        timeout: 5_000,
      })
      expect(await lost).toMatchObject({ status: 503, body: { error: 'SERVICE_UNREACHABLE' } })
      // b's resend is still out: the attempt is open and the shop's order shows it.
      expect(await attemptsOf(a, order.id)).toEqual([expect.objectContaining({ state: 'pending' })])
      await vi.waitFor(() =>
        expect([...a.changes, ...b.changes].filter((c) => c.orderId === String(order.id))).toEqual([
          expect.objectContaining({ state: 'pending', previousState: 'created', attempt: 1 }),
        ]),
      )
      held.open()
      expect(await resent).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    } finally {
      world.proxy.rule = asRuled
      held.open()
    }
    expect(world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
    expect(await attemptsOf(a, order.id)).toEqual([expect.objectContaining({ state: 'authorised' })])
  })

  it('answer lost at a step the shopper never saw, then the poller found it: a new try may go, one payment each', async () => {
    const before = paymentsBefore()
    const { s, order } = await answerLost((s, order) => s.idealSubmission(order))
    expect((await s.backend.poller.pollNow()).failed).toBeUndefined()
    // The feed says the payment waits at the bank's redirect: a step, as its lost answer would have said.
    expect(await attemptsOf(s, order.id)).toEqual([expect.objectContaining({ state: 'action_required', resultCode: 'RedirectShopper' })])
    expect(await s.post('/api/payments', await s.cardSubmission(order))).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect((await attemptsOf(s, order.id)).map((a) => a.state)).toEqual(['action_required', 'authorised'])
    expect(paymentsBefore() - before).toBe(2)
  })

  it('the service is down (nothing sent), then back: 503 in words, then the same attempt pays once', async () => {
    const s = await shop()
    const order = s.createOrder()
    const before = paymentsBefore()
    world.proxy.mode = 'down'
    const down = await s.post('/api/payments', await s.cardSubmission(order))
    expect(down).toMatchObject({
      status: 503,
      body: { error: 'SERVICE_UNREACHABLE', message: expect.stringContaining('never charged twice') },
    })
    expect(paymentsBefore()).toBe(before)
    const config = await s.backend.fetch(new Request('http://shop.test/api/config'))
    expect(await config.json()).toMatchObject({ serviceReachable: false })
    world.proxy.mode = 'pass'
    expect(await s.post('/api/payments', await s.cardSubmission(order))).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect(paymentsBefore() - before).toBe(1)
    expect(await attemptsOf(s, order.id)).toHaveLength(1)
  })

  it("the checkout config gives up on a service that is down after its own 3 s deadline, not a payment call's 15 s", async () => {
    // The client's default deadlines (15 s a call), not the short ones of the other tests' shops.
    const s = await shop({ ...connectServiceClient({ baseUrl: world.proxy.baseUrl, fetch: world.proxy.fetch }) })
    world.proxy.mode = 'down'
    const tries = world.proxy.started('GET', '/checkout-payment-methods')
    const config = await s.backend.fetch(new Request('http://shop.test/api/config'))
    expect(await config.json()).toMatchObject({ serviceReachable: false, paymentMethods: [] })
    // Backoff from 0.5 s, doubling, 50-100 % jitter: at most 4 tries fit in 3 s, at least 5 in 15 s.
    expect(world.proxy.started('GET', '/checkout-payment-methods') - tries).toBeLessThanOrEqual(4)
  })

  it('a payment-details answer lost: the retry is answered from the feed (Authorised), not an error', async () => {
    const s = await shop()
    const { order, details } = await detailsAnswerLost(s)
    expect(await s.post('/api/payment-details', details)).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
    expect((await attemptsOf(s, order.id))[0]).toMatchObject({ state: 'authorised' })
  })

  it('a payment-details answer lost at a service that keeps answers by key: the retry gets the first answer, no feed read', async () => {
    world.proxy.forwardsKey = () => true
    try {
      const s = await shop()
      const callsBefore = world.proxy.callsForwarded('POST', '/payment-details').length
      const { order, details } = await detailsAnswerLost(s)
      const feedReads = world.proxy.started('GET', '/updated-payments')
      expect(await s.post('/api/payment-details', details)).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
      expect(world.proxy.started('GET', '/updated-payments')).toBe(feedReads)
      // Every call under the step's one key: the service made the step once and said so again.
      const calls = world.proxy.callsForwarded('POST', '/payment-details').slice(callsBefore)
      expect(calls.length).toBeGreaterThanOrEqual(2)
      expect(new Set(calls.map((call) => call.key)).size).toBe(1)
      expect((await attemptsOf(s, order.id))[0]).toMatchObject({ state: 'authorised' })
    } finally {
      world.proxy.forwardsKey = (method, path) => !isDetailsCall(method, path)
    }
  })
})

describe('on a bad day: the feed', () => {
  it('an older feed record for an order already further along is skipped: no regression, no change heard', async () => {
    const s = await shop()
    const order = s.createOrder()
    const started = await s.post('/api/payments', s.idealSubmission(order))
    const redirectResult = await approveAtBank((started.body.action as { url: string }).url)
    expect((await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })).body).toEqual({
      resultCode: 'Authorised',
    })
    const heard = s.changes.length
    // The feed holds redirect_shopper (older) and authorised for this payment.
    const report = await s.backend.poller.pollNow()
    expect(report.skipped).toBeGreaterThanOrEqual(2)
    expect((await attemptsOf(s, order.id))[0]).toMatchObject({ state: 'authorised' })
    expect(s.changes.slice(heard).filter((c) => c.orderId === String(order.id))).toEqual([])
  })

  it('a record for an order the shop does not know is reported and kept; later records apply, the cursor moves on', async () => {
    const s = await shop()
    await s.backend.poller.pollNow() // from the start of the feed: earlier tests' payments are unknown here too
    const direct = createServiceClient({ baseUrl: world.sandbox.baseUrl, credentials: world.sandbox.readyMadeShop })
    const ghost = await direct.createPayment(world.sandbox.readyMadeShop.storeId, {
      channel: 'web',
      returnUrl: 'http://127.0.0.1:9/',
      amount: { currency: 'EUR', value: 1500 },
      reference: 'ghost-order',
      metadata: { shop_order_id: 'no-such-order' },
      paymentMethod: { type: 'ideal' },
    })
    // Then a payment of a real order whose answer was lost: only the feed can settle it.
    const order = s.createOrder()
    world.proxy.matches = isPaymentCall
    world.proxy.mode = 'lose-answers'
    expect((await s.post('/api/payments', await s.cardSubmission(order))).status).toBe(503)
    world.proxy.mode = 'pass'
    const cursorBefore = await s.store.readCursor()
    const report = await s.backend.poller.pollNow()
    expect(report.problems).toContainEqual({ sequence: expect.any(Number), reason: 'UNKNOWN_ORDER' })
    expect((await attemptsOf(s, order.id))[0]).toMatchObject({ state: 'authorised' })
    expect(await s.store.readCursor()).toBeGreaterThan(cursorBefore)
    const problems = await s.backend.poller.problems()
    expect(problems.find((p) => p.change.pspReference === ghost.pspReference)).toMatchObject({ reason: 'UNKNOWN_ORDER', tries: 1 })
    // The next poll is not held up by it either.
    expect((await s.backend.poller.pollNow()).failed).toBeUndefined()
  })

  it('a record the service client cannot read is kept as a problem; the records after it apply, the cursor moves on', async () => {
    const s = await shop()
    await s.backend.poller.pollNow()
    const other = s.createOrder()
    expect((await s.post('/api/payments', await s.cardSubmission(other))).body).toEqual({ resultCode: 'Authorised' })
    const [unreadable] = await attemptsOf(s, other.id)
    // Then a payment whose answer was lost: only the feed can settle it.
    const order = s.createOrder()
    world.proxy.matches = isPaymentCall
    world.proxy.mode = 'lose-answers'
    expect((await s.post('/api/payments', await s.cardSubmission(order))).status).toBe(503)
    world.proxy.mode = 'pass'
    // The first payment's record comes with its amount as text: neither the client nor the poller can read it.
    world.proxy.answer = (_method, path, body) => {
      if (!path.endsWith('/updated-payments')) return body
      const page = JSON.parse(body.toString()) as { payments: Array<{ pspReference: string; amount: { value: unknown } }> }
      for (const record of page.payments) if (record.pspReference === unreadable!.pspReference) record.amount.value = '28.00'
      return Buffer.from(JSON.stringify(page))
    }
    try {
      const cursorBefore = await s.store.readCursor()
      const report = await s.backend.poller.pollNow()
      expect(report.failed).toBeUndefined()
      expect(report.problems).toContainEqual({ sequence: expect.any(Number), reason: 'UNREADABLE_RECORD' })
      expect((await attemptsOf(s, order.id))[0]).toMatchObject({ state: 'authorised' })
      expect(await s.store.readCursor()).toBeGreaterThan(cursorBefore)
      const kept = (await s.backend.poller.problems()).find((p) => p.change.pspReference === unreadable!.pspReference)
      expect(kept).toMatchObject({ reason: 'UNREADABLE_RECORD' })
      // The next poll is not held up by it either.
      expect((await s.backend.poller.pollNow()).failed).toBeUndefined()
    } finally {
      world.proxy.answer = (_method, _path, body) => body
    }
  })

  it('a feed record that says a payment the ledger holds as refused was taken is kept as a problem, not skipped', async () => {
    const s = await shop()
    await s.backend.poller.pollNow()
    const order = s.createOrder()
    const refused = findTestCard({ threeDSecure: 'none', outcome: 'refused' })
    expect((await s.post('/api/payments', await s.cardSubmission(order, refused))).body).toMatchObject({ resultCode: 'Refused' })
    const [attempt] = await attemptsOf(s, order.id)
    // The service reports the payment captured after all (a decline it retried, a refusal it took back).
    feedSaysOf(attempt!.pspReference, (record) => ({ status: 'captured', capturedAmount: record.amount }))
    try {
      const report = await s.backend.poller.pollNow()
      expect(report.problems).toContainEqual({ sequence: expect.any(Number), reason: 'PAID_AFTER_FAILURE' })
    } finally {
      world.proxy.answer = (_method, _path, body) => body
    }
    // The ledger keeps its final state; the operator sees the record and decides (refund, or ship).
    expect((await attemptsOf(s, order.id))[0]).toMatchObject({ state: 'refused', capturedValue: 0 })
    const kept = await s.backend.poller.problems()
    expect(kept.find((p) => p.change.pspReference === attempt!.pspReference)).toMatchObject({ reason: 'PAID_AFTER_FAILURE' })
  })

  /** An order the shopper paid by card in one tab, with a bank redirect left open in another. */
  async function cardBesideBankRedirect(s: TestShop) {
    await s.backend.poller.pollNow()
    const order = s.createOrder()
    expect((await s.post('/api/payments', s.idealSubmission(order))).body).toMatchObject({ resultCode: 'RedirectShopper' })
    expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toMatchObject({ resultCode: 'Authorised' })
    const [atBank, byCard] = await attemptsOf(s, order.id)
    expect(atBank!.pspReference).toBeDefined()
    return { order, atBank: atBank!, byCard: byCard! }
  }

  it('a bank redirect left for a card and approved after the card paid is kept as a problem, not a second quiet payment', async () => {
    const s = await shop({ admin: { authorize: () => true } })
    const { order, atBank } = await cardBesideBankRedirect(s)
    // The shopper approves at the bank after all: the service says the first payment was taken too.
    feedSaysOf(atBank.pspReference, { status: 'authorised' })
    try {
      const report = await s.backend.poller.pollNow()
      expect(report.problems).toContainEqual({ sequence: expect.any(Number), reason: 'PAID_TWICE' })
    } finally {
      world.proxy.answer = (_method, _path, body) => body
    }
    // The order stays paid once in the ledger; the operator sees the other payment and refunds one.
    expect((await attemptsOf(s, order.id)).map((a) => a.state)).toEqual(['action_required', 'authorised'])
    const kept = (await s.backend.poller.problems()).find((p) => p.change.pspReference === atBank.pspReference)
    expect(kept).toMatchObject({ reason: 'PAID_TWICE' })
    // The card's payment refunded in full: the bank's payment is the order's now, and the kept record applies.
    await s.backend.capture(order.id)
    await s.backend.poller.pollNow()
    await s.backend.refund(order.id)
    await s.backend.poller.pollNow()
    const retried = await s.backend.fetch(
      new Request(`http://shop.test/api/admin/problems/${kept!.sequence}/retry`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://shop.test' },
        body: '{}',
      }),
      {
        ip: '127.0.0.1',
      },
    )
    expect(await retried.json()).toMatchObject({ outcome: 'applied' })
    expect((await attemptsOf(s, order.id)).map((a) => a.state)).toEqual(['authorised', 'refunded'])
  })

  /**
   * A bank redirect left for a card; the card's call held on its way while the feed says the bank took
   * the first payment after all and the poller runs (`meanwhile` first). Both attempts end paid; the log lines with PAID_TWICE.
   */
  async function bankPaidWhileCardCallOut(s: TestShop, lines: readonly string[], meanwhile = async (_card: AttemptRecord) => {}) {
    await s.backend.poller.pollNow()
    const order = s.createOrder()
    expect((await s.post('/api/payments', s.idealSubmission(order))).body).toMatchObject({ resultCode: 'RedirectShopper' })
    const held = gate()
    const asRuled = world.proxy.rule
    try {
      world.proxy.rule = paymentCallsHeldUntil(held)
      const card = s.post('/api/payments', await s.cardSubmission(order))
      await vi.waitFor(async () => expect(await attemptsOf(s, order.id)).toHaveLength(2))
      const [atBank, byCard] = await attemptsOf(s, order.id)
      await meanwhile(byCard!)
      feedSaysOf(atBank!.pspReference, { status: 'authorised' })
      expect((await s.backend.poller.pollNow()).problems ?? []).toEqual([])
      held.open()
      expect((await card).body).toEqual({ resultCode: 'Authorised' })
    } finally {
      held.open()
      world.proxy.rule = asRuled
      world.proxy.answer = (_method, _path, body) => body
    }
    const [atBank, byCard] = await attemptsOf(s, order.id)
    expect([atBank!.state, byCard!.state]).toEqual(['authorised', 'authorised'])
    return { order, atBank: atBank!, byCard: byCard!, said: lines.filter((line) => line.includes('PAID_TWICE')) }
  }

  it('a card paid while the poller took the bank payment it replaced is said in the log as an error', async () => {
    const lines: string[] = []
    const s = await shop({ ...patientClient(world), log: (line) => lines.push(line) })
    const { order, atBank, byCard, said } = await bankPaidWhileCardCallOut(s, lines)
    expect(said).toEqual([
      `order ${order.id}: attempt 2 (${byCard.pspReference}) was paid while attempt 1 (${atBank.pspReference}) ` +
        'holds a payment too (PAID_TWICE); refund one',
    ])
  })

  it("an order paid twice through a request, not the feed, is listed in the admin's problems with both payments", async () => {
    const lines: string[] = []
    const s = await shop({ ...patientClient(world), log: (line) => lines.push(line), admin: { authorize: () => true } })
    const { order, atBank, byCard } = await bankPaidWhileCardCallOut(s, lines)
    const problems = await s.backend.fetch(new Request('http://shop.test/api/admin/problems'), { ip: '127.0.0.1' })
    const { paidTwice } = (await problems.json()) as { paidTwice: unknown[] }
    expect(paidTwice.filter((p) => (p as { orderId: string }).orderId === String(order.id))).toEqual([
      {
        orderId: String(order.id),
        attempt: 1,
        state: 'authorised',
        methodType: 'ideal',
        pspReference: atBank.pspReference,
        amount: order.amount,
        since: expect.any(String),
      },
      {
        orderId: String(order.id),
        attempt: 2,
        state: 'authorised',
        methodType: 'scheme',
        pspReference: byCard.pspReference,
        amount: order.amount,
        since: expect.any(String),
      },
    ])
  })

  it("a card answer stored between a feed page's plan and its commit is said in the log by the poller", async () => {
    const lines: string[] = []
    let answerMeanwhile: (() => Promise<unknown>) | undefined
    const s = await shop({
      ...patientClient(world),
      log: (line) => lines.push(line),
      wrapStore: (store) => ({
        ...store,
        async applyChangesAndCursor(batch) {
          const write = answerMeanwhile
          answerMeanwhile = undefined
          if (write) await write()
          return store.applyChangesAndCursor(batch)
        },
      }),
    })
    // The card's answer committed after the poller read the order's attempts and before its page commits.
    const { order, atBank, said } = await bankPaidWhileCardCallOut(s, lines, async (byCard) => {
      const at = new Date().toISOString()
      answerMeanwhile = () =>
        s.store.compareAndSet(byCard.id, byCard.version, { state: 'authorised', resultCode: 'Authorised', updatedAt: at })
    })
    expect(answerMeanwhile).toBeUndefined()
    // The card's reference was not stored yet when the poller looked: its answer came after.
    expect(said).toEqual([
      `order ${order.id}: attempt 1 (${atBank.pspReference}) was paid while attempt 2 (no pspReference yet) ` +
        'holds a payment too (PAID_TWICE); refund one',
    ])
  })

  it('an order the ledger already holds paid twice keeps its captures', async () => {
    const s = await shop()
    const { order, atBank } = await cardBesideBankRedirect(s)
    // Both paid in the ledger, as one could be before the check above (or by a race beside it).
    const paid = { state: 'authorised', resultCode: 'Authorised', updatedAt: new Date().toISOString() } as const
    expect(await s.store.compareAndSet(atBank.id, atBank.version, paid)).toBeDefined()
    const [, byCard] = await attemptsOf(s, order.id)
    await s.backend.capture(order.id, { pspReference: byCard!.pspReference! })
    const report = await s.backend.poller.pollNow()
    expect(report.problems ?? []).toEqual([])
    expect((await attemptsOf(s, order.id)).map((a) => a.state)).toEqual(['authorised', 'captured'])
  })

  it('a poll that stops at its page limit says so, and a lost details answer behind it waits (503) instead of 409', async () => {
    const lines: string[] = []
    const s = await shop({ log: (line) => lines.push(line) })
    s.backend.poller.start({ intervalMs: 3_600_000, maxPagesPerPoll: 1 })
    // More than a page (100 records) of other payments ahead of this order's in the feed.
    const direct = createServiceClient({ baseUrl: world.sandbox.baseUrl, credentials: world.sandbox.readyMadeShop })
    for (let i = 0; i < 101; i++)
      await direct.createPayment(world.sandbox.readyMadeShop.storeId, {
        channel: 'web',
        returnUrl: 'http://127.0.0.1:9/',
        amount: { currency: 'EUR', value: 1500 },
        reference: `backlog-${i}`,
        metadata: { shop_order_id: `backlog-${i}` },
        paymentMethod: { type: 'ideal' },
      })
    const { details } = await detailsAnswerLost(s)
    // The retry's feed read stops a page in, before this order's record: not a clear read.
    const retry = await s.post('/api/payment-details', details)
    expect(retry).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
    expect(lines).toContain('poll stopped at its limit (1 feed pages); the next poll reads on from the cursor')
    // Polled on to the feed's end, the same retry is answered from it.
    while ((await s.backend.poller.pollNow()).moreToRead);
    expect(await s.post('/api/payment-details', details)).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
  })

  it('a lost details answer while the feed lags the payments API: the claim holds Pay again until the feed shows it', async () => {
    const s = await shop()
    await s.backend.poller.pollNow()
    const order = s.createOrder()
    const started = await s.post('/api/payments', s.idealSubmission(order))
    const [attempt] = await attemptsOf(s, order.id)
    const redirectResult = await approveAtBank((started.body.action as { url: string }).url)
    // The feed a few seconds behind the payments API: this payment's authorisation is not in it yet.
    let lagging = true
    world.proxy.answer = (_method, path, body) => {
      if (!lagging || !path.endsWith('/updated-payments')) return body
      const page = JSON.parse(body.toString()) as { payments: Array<{ sequence: number; pspReference: string }>; cursor: number }
      const at = page.payments.findIndex((r) => r.pspReference === attempt!.pspReference)
      if (at < 0) return body
      const shown = page.payments.slice(0, at)
      return Buffer.from(
        JSON.stringify({ payments: shown, cursor: shown.at(-1)?.sequence ?? page.payments[0]!.sequence - 1, hasMore: false }),
      )
    }
    // The first details call authorises at the service and its answer is lost; the client's retry hears PAYMENT_ALREADY_FINAL.
    let detailsCalls = 0
    const asRuled = world.proxy.rule
    world.proxy.rule = (method, path) =>
      method === 'POST' && path.endsWith('/payment-details') && detailsCalls++ === 0 ? { action: 'lose' } : { action: 'forward' }
    try {
      const details = { orderId: order.id, details: { redirectResult } }
      // The feed read shows nothing: this payment ended, and the ledger cannot tell how.
      expect(await s.post('/api/payment-details', details)).toMatchObject({ status: 409, body: { error: 'NOT_AWAITING_DETAILS' } })
      expect(detailsCalls).toBe(2)
      expect((await attemptsOf(s, order.id)).map((a) => a.state)).toEqual(['action_required'])
      // The shopper pays with a card: nothing goes while the bank's payment may be paid (its claim is kept).
      const before = paymentsBefore()
      expect(await s.post('/api/payments', await s.cardSubmission(order))).toMatchObject({
        status: 503,
        body: { error: 'OUTCOME_PENDING' },
      })
      expect(paymentsBefore()).toBe(before)
      // The feed catches up: the bank's payment pays the order, and the return page hears it.
      lagging = false
      await s.backend.poller.pollNow()
      expect(await s.post('/api/payment-details', details)).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
      expect(await s.post('/api/payments', await s.cardSubmission(order))).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
      expect((await attemptsOf(s, order.id)).map((a) => a.state)).toEqual(['authorised'])
      expect(s.changes.filter((c) => c.orderId === String(order.id)).map((c) => c.state)).toEqual(['action_required', 'authorised'])
      expect(world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
    } finally {
      world.proxy.rule = asRuled
      world.proxy.answer = (_method, _path, body) => body
    }
  })

  it('a pile of due problems is retried a page at a time under the lease, and the feed is still read every poll', async () => {
    // The shop's order table answers in 8 ms (a remote database): a page of 100 plans in under a second.
    // The clock moves those 8 ms itself, so only the plan's length can outlast the lease, not a busy host.
    let at = Date.now()
    const s = await shop({
      now: () => new Date(at),
      findOrder: async (id) => {
        at += 8
        return s.orders.get(id)
      },
    })
    s.backend.poller.start({ intervalMs: 3_600_000, leaseMs: 1_500 })
    const order = s.createOrder(2800)
    expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
    expect((await s.backend.poller.pollNow()).failed).toBeUndefined()
    // 250 records the shop could not apply (orders its table did not have during an outage), due now.
    const due = new Date(at).toISOString()
    const gone = (i: number) => ({
      sequence: 9_000_000_000 + i,
      pspReference: `GONE${String(i).padStart(12, '0')}`,
      status: 'authorised',
      amount: { currency: 'EUR', value: 100 },
      capturedAmount: { currency: 'EUR', value: 0 },
      refundedAmount: { currency: 'EUR', value: 0 },
      metadata: { shop_order_id: `gone-${i}` },
    })
    await s.store.applyChangesAndCursor({
      applied: [],
      skipped: [],
      resolved: [],
      at: due,
      problems: Array.from({ length: 250 }, (_, i) => ({
        sequence: 9_000_000_000 + i,
        reason: 'UNKNOWN_ORDER',
        nextTryAt: due,
        change: gone(i),
      })),
    })
    await s.backend.capture(order.id)
    // All 250 at once would outlast the 1.5 s lease (LEASE_LOST at every poll, the feed never read).
    expect((await s.backend.poller.pollNow()).failed).toBeUndefined()
    expect((await attemptsOf(s, order.id))[0]).toMatchObject({ state: 'captured', capturedValue: 2800 })
    expect((await s.store.listProblems(new Date(at + 3_600_000).toISOString())).length).toBeGreaterThanOrEqual(250)
    await s.backend.poller.stop()
  }, 60_000)

  it("a delivered mark that fails holds the order's next change back: the shop's last word is the newest change", async () => {
    let failNextMark = false
    const s = await shop({
      // The shop writes its own database: each mark goes in its own commit.
      onOrderChange: async (change) => {
        await new Promise((resolve) => setTimeout(resolve, 5))
        s.changes.push(change)
      },
      wrapStore: (store) => ({
        ...store,
        async markDelivered(id: number) {
          if (!failNextMark) return store.markDelivered(id)
          failNextMark = false
          throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
        },
      }),
    })
    const order = s.createOrder(2800)
    expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
    await s.backend.deliverChanges()
    await s.backend.capture(order.id, { amount: { currency: 'EUR', value: 1000 } })
    await s.backend.capture(order.id, { amount: { currency: 'EUR', value: 1800 } })
    failNextMark = true
    await s.backend.poller.pollNow() // partially_captured, then captured: the first one's mark fails
    await s.backend.deliverChanges()
    const heard = s.changes.filter((c) => c.orderId === String(order.id)).map((c) => `${c.state}:${c.capturedValue}`)
    expect(heard.at(-1)).toBe('captured:2800')
    expect(heard.filter((c) => c === 'partially_captured:1000')).toHaveLength(2) // at least once: heard again, in order
  })

  it('an onOrderChange that throws is delivered again later, not lost', async () => {
    let failing = true
    const heard: string[] = []
    const s = await shop({
      onOrderChange: (change) => {
        if (failing) throw new Error('shop database busy')
        heard.push(`${change.orderId}:${change.state}`)
      },
      now: () => new Date(Date.now() + (failing ? 0 : 3_600_000)),
    })
    const order = s.createOrder()
    expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
    expect(heard).toEqual([])
    failing = false // and an hour later, past the backoff
    await s.backend.deliverChanges()
    expect(heard).toEqual([`${order.id}:authorised`])
  })
})

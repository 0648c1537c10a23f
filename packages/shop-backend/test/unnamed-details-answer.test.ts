/**
 * Payment-details answers that name no attempt (no reference the ledger knows, no echoed metadata):
 * another order's return posted here, an order's own payment while the feed lags.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { approveAtBank } from './support/bank-page.js'
import { useWorld } from './support/shop.js'
import { withoutStepReferences } from './support/step-references.js'

const { world, shop } = useWorld()

// A details answer that echoes none of the payment's metadata (rule 7 read as the details request's own).
function detailsEchoNothing(method: string, path: string, body: Buffer): Buffer {
  if (!path.endsWith('/payment-details')) return withoutStepReferences(method, path, body)
  const answer = JSON.parse(withoutStepReferences(method, path, body).toString() || '{}') as Record<string, unknown>
  delete answer.metadata
  return Buffer.from(JSON.stringify(answer))
}

/**
 * Details answers without metadata (and steps without references when `stepReferences` is false),
 * and a feed that lags: the records of the orders in `lagging` (and all after them) are not shown yet.
 */
function laggingFeedUnnamedDetails(lagging: ReadonlySet<string>, options: { stepReferences: boolean; received?: boolean }) {
  world().proxy.answer = (method, path, body) => {
    if (path.endsWith('/updated-payments')) {
      const page = JSON.parse(body.toString()) as { payments: Array<{ sequence: number; metadata?: { shop_order_id?: string } }> }
      const at = page.payments.findIndex((r) => lagging.has(String(r.metadata?.shop_order_id)))
      if (at < 0) return body
      const shown = page.payments.slice(0, at)
      return Buffer.from(
        JSON.stringify({ payments: shown, cursor: shown.at(-1)?.sequence ?? page.payments[0]!.sequence - 1, hasMore: false }),
      )
    }
    const stepped = options.stepReferences ? body : withoutStepReferences(method, path, body)
    if (!path.endsWith('/payment-details')) return stepped
    const answer = JSON.parse(stepped.toString() || '{}') as Record<string, unknown>
    delete answer.metadata
    if (options.received && answer.resultCode === 'Authorised') answer.resultCode = 'Received'
    return Buffer.from(JSON.stringify(answer))
  }
}

type Shop = Awaited<ReturnType<typeof shop>>
type Order = ReturnType<Shop['createOrder']>

/** `order`'s card waits at its 3-D Secure step; `other`'s iDEAL payment is approved at the bank: its return's result. */
async function stepHereApprovalThere(s: Shop, order: Order, other: Order): Promise<string> {
  const challenged = await s.post('/api/payments', await s.cardSubmission(order, findTestCard({ threeDSecure: 'challenge' })))
  expect(challenged.body.action).toBeDefined()
  const ideal = await s.post('/api/payments', s.idealSubmission(other))
  return approveAtBank((ideal.body.action as { url: string }).url)
}

/** The other order's return posted for this order (a confused page, or a forged one), after {@link stepHereApprovalThere}. */
async function otherOrdersReturnPostedHere(amounts: { owed?: number; otherOwes?: number } = {}) {
  const s = await shop()
  const order = s.createOrder(amounts.owed)
  const other = s.createOrder(amounts.otherOwes)
  const redirectResult = await stepHereApprovalThere(s, order, other)
  const crossed = await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })
  return { s, order, other, crossed }
}

/** An order's iDEAL payment approved at the bank; details answers unnamed, steps without references, its feed lagging. */
async function bankApprovedFeedLagging() {
  const lagging = new Set<string>()
  laggingFeedUnnamedDetails(lagging, { stepReferences: false })
  let ahead = 0
  const s = await shop({ now: () => new Date(Date.now() + ahead) })
  const order = s.createOrder()
  lagging.add(String(order.id))
  const ideal = await s.post('/api/payments', s.idealSubmission(order))
  const redirectResult = await approveAtBank((ideal.body.action as { url: string }).url)
  return { s, order, redirectResult, lagging, minuteLater: () => (ahead = 61_000) }
}

/** The bank's return, its payment unnamed: "being confirmed", and a minute later, still no record, Pay again sends nothing. */
async function returnHoldsTheOrder(s: Shop, order: Order, redirectResult: string, minuteLater: () => void) {
  const returned = await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })
  expect(returned).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
  minuteLater()
  expect(await s.post('/api/payments', await s.cardSubmission(order))).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
  expect(world().sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
}

/** Crossed details answered 409, and this order's card still at its step: its one attempt, returned. */
async function untouchedByCrossedDetails(s: Shop, order: Order, crossed: { status: number; body: unknown }) {
  expect(crossed).toMatchObject({ status: 409, body: { error: 'NOT_AWAITING_DETAILS' } })
  const [attempt, ...more] = await s.store.listAttempts(String(order.id))
  expect(more).toEqual([])
  expect(attempt).toMatchObject({ methodType: 'scheme', state: 'action_required' })
  return attempt
}

/** The other order holds its payment: one attempt, authorised; its next Pay hears so; one payment at the sandbox. */
async function paidOnceAtItsOrder(s: Shop, other: Order) {
  const [held, ...more] = await s.store.listAttempts(String(other.id))
  expect([held?.state, ...more.map((a) => a.state)]).toEqual(['authorised'])
  expect((await s.post('/api/payments', await s.cardSubmission(other))).body).toEqual({ resultCode: 'Authorised' })
  expect(world().sandboxPaymentsFor(other.reference, 'Authorised')).toBe(1)
  return held!
}

afterEach(() => {
  world().proxy.answer = (_method, _path, body) => body
})

describe('payment-details answers that name no attempt', () => {
  it("details that finish another order's payment change nothing of this order, and that order's payment is held", async () => {
    world().proxy.answer = withoutStepReferences
    const { s, order, other, crossed } = await otherOrdersReturnPostedHere()

    const attempt = await untouchedByCrossedDetails(s, order, crossed)
    expect(attempt?.pspReference).toBeUndefined()
    // The other order's payment is held where it belongs: its next Pay hears it is paid and charges nothing.
    await paidOnceAtItsOrder(s, other)
  })

  it("another order's bank return, its answer echoing no metadata, pays neither order twice, of any amount", async () => {
    world().proxy.answer = detailsEchoNothing
    // The same amount (a shop of one product): only the feed can tell whose payment the answer is.
    const { s, order, other, crossed } = await otherOrdersReturnPostedHere()

    // The feed put the payment on the other order: nothing of this order moves.
    const attempt = await untouchedByCrossedDetails(s, order, crossed)
    expect(s.changes.filter((c) => c.orderId === String(order.id)).map((c) => c.state)).not.toContain('authorised')
    // The other order's payment is held there, and its next Pay charges nothing.
    const held = await paidOnceAtItsOrder(s, other)
    expect(attempt?.pspReference).not.toBe(held.pspReference)
  })

  it("an order's own payment, its details answer echoing no metadata, is placed by the feed's record", async () => {
    world().proxy.answer = detailsEchoNothing
    const s = await shop()
    const order = s.createOrder()
    const ideal = await s.post('/api/payments', s.idealSubmission(order))
    const redirectResult = await approveAtBank((ideal.body.action as { url: string }).url)
    const challenged = await s.post('/api/payments', await s.cardSubmission(order, findTestCard({ threeDSecure: 'challenge' })))
    expect(challenged.body.action).toBeDefined()

    const returned = await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })

    expect(returned.body).toEqual({ resultCode: 'Authorised' })
    expect((await s.store.listAttempts(String(order.id))).map((a) => [a.methodType, a.state])).toEqual([
      ['ideal', 'authorised'],
      ['scheme', 'action_required'],
    ])
    expect(world().sandboxPaymentsFor(order.reference, 'Authorised')).toBe(1)
  })

  it("another order's return answered Received, unnamed, the feed lagging: this order stays unpaid, that one pays once", async () => {
    const lagging = new Set<string>()
    laggingFeedUnnamedDetails(lagging, { stepReferences: false, received: true })
    const s = await shop()
    const order = s.createOrder()
    const other = s.createOrder()
    lagging.add(String(order.id)).add(String(other.id))
    const redirectResult = await stepHereApprovalThere(s, order, other)

    const crossed = await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })
    expect(crossed).toMatchObject({ status: 503, body: { error: 'OUTCOME_PENDING' } })
    // The feed catches up: the payment is the other order's, and this order never holds its reference.
    lagging.clear()
    await s.backend.poller.pollNow()

    expect((await s.store.listAttempts(String(order.id))).map((a) => [a.state, a.pspReference])).toEqual([['confirming', undefined]])
    await paidOnceAtItsOrder(s, other)
  })

  it("another order's payment the ledger knows by its step's reference is stored on that order: its next Pay charges nothing", async () => {
    const lagging = new Set<string>()
    laggingFeedUnnamedDetails(lagging, { stepReferences: true })
    const s = await shop()
    const order = s.createOrder()
    const other = s.createOrder()
    lagging.add(String(other.id))
    const redirectResult = await stepHereApprovalThere(s, order, other)

    const crossed = await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })

    expect(crossed).toMatchObject({ status: 409, body: { error: 'NOT_AWAITING_DETAILS' } })
    await paidOnceAtItsOrder(s, other)
  })

  it('its own payment answered without a name, the feed lagging: the order is held until the feed names it, past 60 s too', async () => {
    const { s, order, redirectResult, lagging, minuteLater } = await bankApprovedFeedLagging()

    await returnHoldsTheOrder(s, order, redirectResult, minuteLater)
    // The record comes: the order is paid, and its page hears so.
    lagging.clear()
    await s.backend.poller.pollNow()
    expect((await s.store.listAttempts(String(order.id))).map((a) => a.state)).toEqual(['authorised'])
    expect((await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })).body).toEqual({
      resultCode: 'Authorised',
    })
  })

  it("a bank's unnamed payment returning after a card was refused in another tab holds the order too, past 60 s", async () => {
    const { s, order, redirectResult, lagging, minuteLater } = await bankApprovedFeedLagging()
    // Another tab: a card refused. The latest attempt, which the claim sits on, has failed.
    const refused = await s.post('/api/payments', await s.cardSubmission(order, findTestCard({ threeDSecure: 'none', outcome: 'refused' })))
    expect(refused.body).toMatchObject({ resultCode: 'Refused' })

    await returnHoldsTheOrder(s, order, redirectResult, minuteLater)
    lagging.clear()
    await s.backend.poller.pollNow()
    expect((await s.store.listAttempts(String(order.id))).map((a) => [a.methodType, a.state])).toEqual([
      ['ideal', 'authorised'],
      ['scheme', 'refused'],
    ])
  })
})

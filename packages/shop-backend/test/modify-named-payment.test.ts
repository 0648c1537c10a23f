// Capture, refund and cancel of an order paid twice, each acting on the payment the merchant names.
import { createServiceClient } from '@card-jwe/service-client'
import { describe, expect, it, vi } from 'vitest'
import { ShopBackendError } from '../src/index.js'
import { approveAtBank } from './support/bank-page.js'
import { gate } from './support/gate.js'
import { patientClient, type TestShop, useWorld } from './support/shop.js'

const { world, shop } = useWorld()

const isPaymentCall = (method: string, path: string) => method === 'POST' && path.endsWith('/payments')
const attemptsOf = (s: TestShop, orderId: string | number) => s.store.listAttempts(String(orderId))
/** The captures, refunds and cancels the sandbox holds for a payment, by kind. */
const sandboxModifications = (pspReference: string) =>
  world()
    .sandboxRows<{ kind: string }>('SELECT kind FROM modifications WHERE payment_psp_reference = ? ORDER BY created_at', pspReference)
    .map((row) => row.kind)

/** What `call` ended with (its answer or its error) while the proxy lost the answers of POSTs to paths ending `pathEnd`. */
async function withAnswersLost(pathEnd: string, call: () => Promise<unknown>): Promise<unknown> {
  world().proxy.matches = (method, path) => method === 'POST' && path.endsWith(pathEnd)
  world().proxy.mode = 'lose-answers'
  try {
    return await call().catch((error: unknown) => error)
  } finally {
    world().proxy.mode = 'pass'
    world().proxy.matches = () => true
  }
}

/**
 * An order paid twice at the service and in the ledger: a bank redirect approved, then a card paid
 * while the bank's payment was finished at the service (by its details sent straight to it, as the
 * bank's own return could) and the poller applied it. Both payments are real sandbox payments.
 */
async function orderPaidTwice(s: TestShop) {
  await s.backend.poller.pollNow()
  const order = s.createOrder()
  const started = await s.post('/api/payments', s.idealSubmission(order))
  const redirectResult = await approveAtBank((started.body.action as { url: string }).url)
  const held = gate()
  const asRuled = world().proxy.rule
  try {
    world().proxy.rule = (method, path) => ({ action: 'forward', ...(isPaymentCall(method, path) ? { holdUntil: held.opened } : {}) })
    const card = s.post('/api/payments', await s.cardSubmission(order))
    await vi.waitFor(async () => expect(await attemptsOf(s, order.id)).toHaveLength(2))
    const { readyMadeShop, baseUrl } = world().sandbox
    const direct = createServiceClient({ baseUrl, credentials: readyMadeShop })
    await direct.paymentDetails(readyMadeShop.storeId, { details: { redirectResult } }, { idempotencyKey: `bank-return-${order.id}` })
    await s.backend.poller.pollNow()
    held.open()
    expect((await card).body).toEqual({ resultCode: 'Authorised' })
  } finally {
    held.open()
    world().proxy.rule = asRuled
  }
  const [atBank, byCard] = await attemptsOf(s, order.id)
  expect([atBank!.state, byCard!.state]).toEqual(['authorised', 'authorised'])
  return { orderId: order.id, bank: atBank!.pspReference!, card: byCard!.pspReference! }
}

describe('an order paid twice: capture, refund and cancel act on the payment named by its pspReference', () => {
  it('captures and refunds the earlier payment and cancels the later, each once at the service, the other untouched', async () => {
    const s = await shop(patientClient(world()))
    const { orderId, bank, card } = await orderPaidTwice(s)
    expect(await s.backend.capture(orderId, { pspReference: bank })).toMatchObject({ kind: 'capture', state: 'received' })
    expect(await s.backend.cancel(orderId, { pspReference: card })).toMatchObject({ kind: 'cancel', state: 'received' })
    // The same plain calls again: answered from the ledger, nothing more sent.
    await s.backend.capture(orderId, { pspReference: bank })
    await s.backend.cancel(orderId, { pspReference: card })
    expect([sandboxModifications(bank), sandboxModifications(card)]).toEqual([['capture'], ['cancel']])
    await s.backend.poller.pollNow()
    expect((await attemptsOf(s, orderId)).map((a) => a.state)).toEqual(['captured', 'cancelled'])
    expect(await s.backend.refund(orderId, { pspReference: bank })).toMatchObject({ kind: 'refund', state: 'received' })
    expect([sandboxModifications(bank), sandboxModifications(card)]).toEqual([['capture', 'refund'], ['cancel']])
    await s.backend.poller.pollNow()
    expect((await attemptsOf(s, orderId)).map((a) => a.state)).toEqual(['refunded', 'cancelled'])
  })

  it('refuses a call that names no payment, before and after one was cancelled, naming pspReference: nothing sent', async () => {
    const s = await shop(patientClient(world()))
    const { orderId, bank, card } = await orderPaidTwice(s)
    const unnamed = {
      code: 'INVALID_INPUT',
      message: 'pspReference: needed for an order paid twice: which of its payments',
      details: [{ path: 'pspReference', rule: 'needed for an order paid twice: which of its payments' }],
    }
    await expect(s.backend.cancel(orderId)).rejects.toMatchObject(unnamed)
    await s.backend.cancel(orderId, { pspReference: card })
    await s.backend.poller.pollNow()
    // The latest paid is now the other payment: the same plain cancel again must not reach it.
    await expect(s.backend.cancel(orderId)).rejects.toMatchObject(unnamed)
    await expect(s.backend.capture(orderId, { requestId: 'click-capture-2' })).rejects.toMatchObject(unnamed)
    expect([sandboxModifications(bank), sandboxModifications(card)]).toEqual([[], ['cancel']])
  })

  it("one payment cancelled in the service's back office: a call naming none acts on the other, still holding money", async () => {
    const s = await shop(patientClient(world()))
    const { orderId, bank, card } = await orderPaidTwice(s)
    const { readyMadeShop, baseUrl } = world().sandbox
    await createServiceClient({ baseUrl, credentials: readyMadeShop }).cancel(card)
    await s.backend.poller.pollNow()
    expect((await attemptsOf(s, orderId)).map((a) => a.state)).toEqual(['authorised', 'cancelled'])
    expect(await s.backend.capture(orderId)).toMatchObject({ kind: 'capture', state: 'received' })
    expect([sandboxModifications(bank), sandboxModifications(card)]).toEqual([['capture'], ['cancel']])
  })

  it('a call naming none, its answer lost, ends the payment holding money: its plain retry gets the answer, sent once', async () => {
    const s = await shop(patientClient(world()))
    const { orderId, bank, card } = await orderPaidTwice(s)
    const { readyMadeShop, baseUrl } = world().sandbox
    await createServiceClient({ baseUrl, credentials: readyMadeShop }).cancel(card)
    await s.backend.poller.pollNow()
    const lost = await withAnswersLost('/cancels', () => s.backend.cancel(orderId))
    expect(lost).toMatchObject({ code: 'SERVICE_UNREACHABLE' })
    // The feed shows the cancel that was sent: neither payment holds money now.
    await s.backend.poller.pollNow()
    expect((await attemptsOf(s, orderId)).map((a) => a.state)).toEqual(['cancelled', 'cancelled'])
    const retried = await s.backend.cancel(orderId)
    expect(retried).toMatchObject({ kind: 'cancel', state: 'received' })
    expect(await s.backend.cancel(orderId)).toEqual(retried)
    expect([sandboxModifications(bank), sandboxModifications(card)]).toEqual([['cancel'], ['cancel']])
  })

  it('a named capture whose answer was lost: a retry without the name is refused; by name or requestId it is settled once', async () => {
    const s = await shop(patientClient(world()))
    const { orderId, bank, card } = await orderPaidTwice(s)
    const lost = await withAnswersLost('/captures', () => s.backend.capture(orderId, { pspReference: bank }))
    expect(lost).toMatchObject({ code: 'SERVICE_UNREACHABLE', details: { requestId: expect.any(String) } })
    await expect(s.backend.capture(orderId)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    const { requestId } = (lost as ShopBackendError).details as { requestId: string }
    expect(await s.backend.capture(orderId, { requestId })).toMatchObject({ kind: 'capture', state: 'received' })
    expect(await s.backend.capture(orderId, { pspReference: bank })).toMatchObject({ kind: 'capture', state: 'received' })
    expect([sandboxModifications(bank), sandboxModifications(card)]).toEqual([['capture'], []])
  })

  it("refuses a pspReference that is none of the order's payments, naming the field, and sends nothing", async () => {
    const s = await shop(patientClient(world()))
    const { orderId, bank } = await orderPaidTwice(s)
    const other = await orderPaidTwice(s)
    const refused = await s.backend.capture(orderId, { pspReference: other.card }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ShopBackendError)
    expect(refused).toMatchObject({
      code: 'INVALID_INPUT',
      message: "pspReference: one of this order's payments",
      details: [{ path: 'pspReference', rule: "one of this order's payments" }],
    })
    expect([sandboxModifications(bank), sandboxModifications(other.card)]).toEqual([[], []])
  })

  it("refuses a requestId made for one of the order's payments when it names the other", async () => {
    const s = await shop(patientClient(world()))
    const { orderId, bank, card } = await orderPaidTwice(s)
    await s.backend.capture(orderId, { pspReference: bank, requestId: 'click-capture-1' })
    await expect(s.backend.capture(orderId, { pspReference: card, requestId: 'click-capture-1' })).rejects.toMatchObject({
      code: 'REQUEST_ID_REUSED',
      message: "requestId: already used for another of the order's payments",
    })
    expect([sandboxModifications(bank), sandboxModifications(card)]).toEqual([['capture'], []])
  })

  it("the admin routes take pspReference in the body, and refuse one that is not a reference or not the order's", async () => {
    const s = await shop({ ...patientClient(world()), admin: { authorize: () => true } })
    const { orderId, bank, card } = await orderPaidTwice(s)
    const other = await orderPaidTwice(s)
    const post = async (path: string, body: unknown) => {
      const response = await s.backend.fetch(
        new Request(`http://shop.test/api/admin/orders/${orderId}/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
        { ip: '127.0.0.1' },
      )
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    }
    expect(await post('cancel', { pspReference: 'two words' })).toMatchObject({
      status: 400,
      body: { error: 'INVALID_BODY', details: [{ path: 'pspReference' }] },
    })
    expect(await post('capture', { pspReference: other.bank })).toMatchObject({
      status: 400,
      body: { error: 'INVALID_INPUT', details: [{ path: 'pspReference' }] },
    })
    expect(await post('capture', {})).toMatchObject({ status: 400, body: { error: 'INVALID_INPUT', details: [{ path: 'pspReference' }] } })
    expect(await post('capture', { pspReference: bank })).toMatchObject({ status: 200, body: { kind: 'capture', state: 'received' } })
    await s.backend.poller.pollNow()
    const part = { pspReference: bank, amount: { currency: 'EUR', value: 1000 } }
    expect(await post('refund', part)).toMatchObject({ status: 200, body: { kind: 'refund', state: 'received' } })
    expect(await post('cancel', { pspReference: card })).toMatchObject({ status: 200, body: { kind: 'cancel', state: 'received' } })
    expect([sandboxModifications(bank), sandboxModifications(card)]).toEqual([['capture', 'refund'], ['cancel']])
    expect([sandboxModifications(other.bank), sandboxModifications(other.card)]).toEqual([[], []])
  })
})

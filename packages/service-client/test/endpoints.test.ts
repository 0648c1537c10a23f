/** The endpoint table the client and the sandbox build from, and the answers' schemas. */
import { afterEach, describe, expect, it } from 'vitest'
import { ENDPOINTS, KNOWN_PAYMENT_STATUSES, SERVICE_PATH_PREFIX, UpdatedPaymentsPageSchema, type PaymentStatus } from '../src/index.js'
import * as endpointsEntry from '../src/endpoints.js'
import { misbehavingServer, reply, type MisbehavingServer } from './support/misbehaving-server.js'
import { fastClient } from './support/fixtures.js'

let server: MisbehavingServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const entries = Object.entries(ENDPOINTS)

describe('the endpoint table', () => {
  it('holds 24 endpoints, each method and path once', () => {
    expect(entries).toHaveLength(24)
    expect(new Set(entries.map(([, e]) => `${e.method} ${e.path}`)).size).toBe(24)
  })

  it('puts every path under the fixed prefix but email verification', () => {
    const outside = entries.filter(([, e]) => !e.path.startsWith(`${SERVICE_PATH_PREFIX}/`)).map(([name]) => name)
    expect(outside).toEqual(['sendVerificationEmail'])
  })

  it('signs every call but registration, and retries every call but registration', () => {
    expect(entries.filter(([, e]) => !e.signed).map(([name]) => name)).toEqual(['register'])
    expect(entries.filter(([, e]) => !e.retried).map(([name]) => name)).toEqual(['register'])
  })

  it('marks as moving money the payment, its details, capture, refund and cancel; keys on all but GETs', () => {
    expect(entries.filter(([, e]) => e.movesMoney).map(([name]) => name)).toEqual([
      'createPayment',
      'paymentDetails',
      'capture',
      'refund',
      'cancel',
    ])
    for (const [name, e] of entries) expect(e.idempotencyKey, name).toBe(e.method !== 'GET')
  })

  it('is the same table from the ./endpoints entry', () => {
    expect(endpointsEntry.ENDPOINTS).toBe(ENDPOINTS)
  })
})

describe('updated-payments statuses', () => {
  const change = (status: string) => ({
    sequence: 1,
    pspReference: 'PSPREF0000000001',
    status,
    amount: { currency: 'EUR', value: 100 },
    capturedAmount: { currency: 'EUR', value: 0 },
    refundedAmount: { currency: 'EUR', value: 0 },
    metadata: { shop_order_id: 1 },
    changedAt: '2025-01-01T00:00:00.000Z',
  })

  it('parses every known status, and a status newer than this client', async () => {
    const statuses = [...KNOWN_PAYMENT_STATUSES, 'chargeback']
    server = await misbehavingServer(() => reply.json(200, { payments: statuses.map(change), cursor: 1, hasMore: false }))
    const page = await fastClient(server.url).client.updatedPayments()
    const seen: PaymentStatus[] = page.payments.map((p) => p.status)
    expect(seen).toEqual(statuses)
  })

  it('a record it cannot read costs that record, not the page: named by its sequence and rules, never its values', async () => {
    const { metadata: _, ...outsideTheShop } = { ...change('authorised'), sequence: 2, pspReference: 'PSPREF0000000002' }
    const badAmount = { ...change('captured'), sequence: 3, amount: { currency: 'EUR', value: '4111111111111111' } }
    const records = [change('authorised'), outsideTheShop, badAmount, { ...change('refused'), sequence: 4 }]
    server = await misbehavingServer(() => reply.json(200, { payments: records, cursor: 4, hasMore: false }))
    const page = await fastClient(server.url).client.updatedPayments()
    expect(page.payments.map((p) => p.sequence)).toEqual([1, 4])
    expect(page.unreadable.map(({ sequence, issues }) => ({ sequence, issues }))).toEqual([
      { sequence: 2, issues: [{ path: 'metadata', rule: 'invalid_type' }] },
      { sequence: 3, issues: [{ path: 'amount.value', rule: 'invalid_type' }] },
    ])
    expect(page.unreadable[1]?.record).toEqual(badAmount)
    expect(JSON.stringify(page.unreadable.map((u) => u.issues))).not.toContain('4111')
    expect(page).toMatchObject({ cursor: 4, hasMore: false })
  })

  it('a record without its sequence is a page it cannot read', async () => {
    const { sequence: _, ...unplaced } = change('authorised')
    server = await misbehavingServer(() => reply.json(200, { payments: [unplaced], cursor: 4, hasMore: false }))
    await expect(fastClient(server.url).client.updatedPayments()).rejects.toMatchObject({ code: 'INVALID_RESPONSE' })
  })

  it('still refuses a status that is not a string', () => {
    expect(UpdatedPaymentsPageSchema.safeParse({ payments: [change(7 as unknown as string)], cursor: 1, hasMore: false }).success).toBe(
      false,
    )
  })
})

describe('saved cards', () => {
  it('lists what reads as a card and leaves out another stored method or an odd card, never throwing', async () => {
    const card = { id: 'spm_1', type: 'scheme', brand: 'visa', lastFour: '1142', expiryMonth: '03', expiryYear: '2030' }
    server = await misbehavingServer(() =>
      reply.json(200, {
        paymentMethods: [],
        storedPaymentMethods: [card, { id: 'spm_2', type: 'sepadirectdebit' }, { ...card, id: 'spm_3', expiryMonth: '3' }],
      }),
    )
    const cards = await fastClient(server.url).client.savedCards('store_1', 'shopper-42')
    expect(cards).toEqual([{ id: 'spm_1', brand: 'visa', lastFour: '1142', expiryMonth: '03', expiryYear: '2030' }])
  })
})

/**
 * The demo shop's order table as `onOrderChange` keeps it (its real SQLite database): it follows one
 * payment attempt. An older attempt that pays (a bank payment finished after a card was tried) is
 * followed from then on, its capture and refund shown; the other attempts' later news never turns a
 * paid order back.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { OrderChange } from '@card-jwe/shop-backend'
import { openShopDatabase, type ShopDb } from '../apps/demo/src/server/db.js'
import { createOrderStore, type OrderStore } from '../apps/demo/src/server/order-store.js'
import { applyOrderChange, createOrder } from '../apps/demo/src/server/orders.js'

const now = new Date('2026-12-01T12:00:00.000Z')
let db: ShopDb | undefined
afterEach(() => db?.close())

/** A new order of one tea, and a way to hear a change of one of its attempts. */
function newOrder(): {
  orders: OrderStore
  id: number
  hear: (change: Partial<OrderChange> & Pick<OrderChange, 'attempt' | 'state' | 'version'>) => void
} {
  db = openShopDatabase(join(mkdtempSync(join(tmpdir(), 'demo-orders-')), 'shop.sqlite'))
  const orders = createOrderStore(db)
  const order = createOrder(orders, { items: [{ sku: 'tea-sencha', quantity: 1 }] }, now)
  const hear = (change: Partial<OrderChange> & Pick<OrderChange, 'attempt' | 'state' | 'version'>) =>
    applyOrderChange(
      orders,
      {
        orderId: String(order.id),
        previousState: 'created',
        amount: { currency: order.currency, value: order.value },
        capturedValue: 0,
        refundedValue: 0,
        ...change,
      },
      now,
    )
  return { orders, id: order.id, hear }
}

describe("the demo's order follows one payment attempt", () => {
  it('an older attempt that pays is followed: its capture and refund show, a newer attempt refused later does not undo it', () => {
    const { orders, id, hear } = newOrder()
    hear({ attempt: 1, state: 'action_required', version: 2, resultCode: 'RedirectShopper' }) // at the bank
    hear({ attempt: 2, state: 'refused', version: 2, resultCode: 'Refused', pspReference: 'P2' }) // a card, refused
    hear({ attempt: 1, state: 'authorised', version: 3, resultCode: 'Authorised', pspReference: 'P1' }) // the bank's yes
    expect(orders.find(id)).toMatchObject({ status: 'authorised', psp_reference: 'P1', payment_attempt: 1 })
    hear({ attempt: 1, state: 'captured', version: 4, pspReference: 'P1', capturedValue: 1250 })
    hear({ attempt: 2, state: 'refused', version: 3, resultCode: 'Refused', pspReference: 'P2' }) // heard again, late
    hear({ attempt: 1, state: 'partially_refunded', version: 5, pspReference: 'P1', capturedValue: 1250, refundedValue: 500 })
    expect(orders.find(id)).toMatchObject({ status: 'partially_refunded', psp_reference: 'P1', captured: 1250, refunded: 500 })
  })

  it('a newer attempt left at a challenge and refused after an older one paid leaves the order paid', () => {
    const { orders, id, hear } = newOrder()
    hear({ attempt: 1, state: 'action_required', version: 2, resultCode: 'RedirectShopper' })
    hear({ attempt: 2, state: 'action_required', version: 2, resultCode: 'ChallengeShopper', pspReference: 'P2' })
    hear({ attempt: 1, state: 'authorised', version: 3, resultCode: 'Authorised', pspReference: 'P1' })
    hear({ attempt: 2, state: 'refused', version: 3, resultCode: 'Refused', pspReference: 'P2' })
    expect(orders.find(id)).toMatchObject({ status: 'authorised', result_code: 'Authorised', psp_reference: 'P1' })
  })

  it('an older attempt being confirmed after the bank is followed over a newer refused card: pending, then paid', () => {
    const { orders, id, hear } = newOrder()
    hear({ attempt: 1, state: 'action_required', version: 2, resultCode: 'RedirectShopper' })
    hear({ attempt: 2, state: 'refused', version: 2, resultCode: 'Refused', pspReference: 'P2' })
    hear({ attempt: 1, state: 'confirming', version: 3, resultCode: 'Received', pspReference: 'P1' })
    // The back end holds the order for it: the shop says so, not "refused".
    expect(orders.find(id)).toMatchObject({ status: 'pending', result_code: 'Received', payment_attempt: 1 })
    // A late copy of the newer card's refusal (delivery is at least once) does not undo it.
    hear({ attempt: 2, state: 'refused', version: 2, resultCode: 'Refused', pspReference: 'P2' })
    expect(orders.find(id)).toMatchObject({ status: 'pending', result_code: 'Received', payment_attempt: 1 })
    hear({ attempt: 1, state: 'authorised', version: 4, resultCode: 'Authorised', pspReference: 'P1' })
    expect(orders.find(id)).toMatchObject({ status: 'authorised', psp_reference: 'P1' })
  })

  it('before a payment the newest attempt is followed, and a late copy of an older change of it is ignored', () => {
    const { orders, id, hear } = newOrder()
    hear({ attempt: 1, state: 'refused', version: 2, resultCode: 'Refused', pspReference: 'P1' })
    hear({ attempt: 2, state: 'authorised', version: 2, resultCode: 'Authorised', pspReference: 'P2' })
    hear({ attempt: 1, state: 'refused', version: 2, resultCode: 'Refused', pspReference: 'P1' })
    hear({ attempt: 2, state: 'captured', version: 3, pspReference: 'P2', capturedValue: 1250 })
    hear({ attempt: 2, state: 'authorised', version: 2, resultCode: 'Authorised', pspReference: 'P2' })
    expect(orders.find(id)).toMatchObject({ status: 'captured', psp_reference: 'P2', captured: 1250, payment_attempt: 2 })
  })
})

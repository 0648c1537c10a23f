/**
 * What the dismiss tests share: the shops' clock (moved on by a test past the time a send may still
 * be out), the operator's options, a refund left open under its key, and the admin's dismiss.
 */
import { beforeEach, expect } from 'vitest'
import { SEND_MAY_BE_OUT_MS } from '../../src/ledger/send-window.js'
import type { modificationWorld } from './modification-world.js'
import type { TestShop } from './shop.js'

export const EUR = (value: number) => ({ currency: 'EUR', value })

export function dismissWorld(t: ReturnType<typeof modificationWorld>) {
  /** How far the shops' clock is ahead of the real one; back to 0 before each test. */
  const clock = { aheadMs: 0 }
  beforeEach(() => {
    clock.aheadMs = 0
  })
  const operator = { admin: { authorize: () => true }, now: () => new Date(Date.now() + clock.aheadMs) }

  /** A refund of `value` left open under its key: the service never got it (`down`), or took it and its answer was lost. */
  async function refundLeftOpen(shop: TestShop, orderId: string, value: number, mode: 'down' | 'lose-answers' = 'down') {
    t.failing(mode, '/refunds')
    await expect(shop.backend.refund(orderId, { amount: EUR(value) })).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
    t.world.proxy.mode = 'pass'
    const open = (await t.refundsOf(shop, orderId)).find((m) => m.state === 'requested')
    expect(open).toMatchObject({ amount: EUR(value) })
    return open!
  }

  const dismiss = (shop: TestShop, requestId: string) => shop.post(`/api/admin/modifications/${requestId}/dismiss`, {})

  /** The operator's dismiss once no send of the request can still be out: the shops' clock a while on. */
  function dismissLater(shop: TestShop, requestId: string) {
    clock.aheadMs += SEND_MAY_BE_OUT_MS
    return dismiss(shop, requestId)
  }

  return { clock, operator, refundsOf: t.refundsOf, refundLeftOpen, dismiss, dismissLater }
}

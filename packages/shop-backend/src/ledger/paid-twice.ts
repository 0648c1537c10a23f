// An order paid by two of its attempts, said in the log once both payments are in the ledger.
import type { BackendContext } from '../backend-context.js'
import type { AttemptRecord } from '../store/ledger-store.js'
import { errorCodeOf } from '../store/error-code.js'
import { otherHoldingMoney } from './transitions.js'

/**
 * Says in the log, as an error, an order whose other attempt holds money too: the merchant refunds one.
 * Read after the write, by both the request and the poller: of two writers racing, the later one sees both.
 */
export async function sayIfPaidTwice(context: Pick<BackendContext, 'store' | 'log'>, orderId: string, number: number): Promise<void> {
  let attempts: AttemptRecord[]
  try {
    attempts = await context.store.listAttempts(orderId)
  } catch (error) {
    // Best effort: what it checks is committed already, and the answer or the poll must not fail for it.
    const code = String(errorCodeOf(error))
    context.log(`order ${orderId}: could not check for a second payment (${code})`, 'warn', { component: 'ledger', code, orderId })
    return
  }
  const paid = attempts.find((a) => a.number === number)
  const other = otherHoldingMoney(attempts, number)
  if (!other) return
  const named = (a: AttemptRecord | undefined) => `attempt ${a?.number ?? number} (${a?.pspReference ?? 'no pspReference yet'})`
  context.log(`order ${orderId}: ${named(paid)} was paid while ${named(other)} holds a payment too (PAID_TWICE); refund one`, 'error', {
    component: 'ledger',
    code: 'PAID_TWICE',
    orderId,
  })
}

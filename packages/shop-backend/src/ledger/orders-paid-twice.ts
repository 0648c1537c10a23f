// Orders paid twice, for a person to refund one: read from the ledger, however the second payment came in.
import type { BackendContext } from '../backend-context.js'
import type { Money } from '../store/ledger-store.js'

/** A payment of an order paid twice, as the admin sees it: enough to refund one, never its key or answer. */
export interface PaidTwicePayment {
  readonly orderId: string
  /** The attempt's number within its order. */
  readonly attempt: number
  /** A state that holds the shopper's money: `authorised`, `captured`, … */
  readonly state: string
  /** The payment method's type (`scheme` for a card). */
  readonly methodType: string
  /** The payment's reference at the service, to refund it by. */
  readonly pspReference: string | undefined
  readonly amount: Money
  /** When the attempt last changed. */
  readonly since: string
}

/**
 * The payments of orders two of whose attempts hold money (a bank's approval after a card paid,
 * another order's step finished under this one), at most `limit`. Refunding one in full ends the listing.
 */
export async function ordersPaidTwice(context: Pick<BackendContext, 'store'>, limit: number): Promise<PaidTwicePayment[]> {
  return (await context.store.listPaidTwice(limit)).map((a) => ({
    orderId: a.orderId,
    attempt: a.number,
    state: a.state,
    methodType: a.methodType,
    pspReference: a.pspReference,
    amount: a.amount,
    since: a.updatedAt,
  }))
}

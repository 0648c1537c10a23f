// Captures, refunds and cancels left unanswered: money asked to move that nothing moved, so a person should look.
import type { BackendContext } from '../backend-context.js'
import { lastSendOf } from './send-window.js'
import { openTooLongBefore } from './open-payments.js'

/** A modification open too long, as the admin sees it: what was asked and since when, never its key. */
export interface OpenModification {
  readonly orderId: string
  /** `capture`, `refund` or `cancel`. */
  readonly kind: string
  /** The merchant's request id: a call with it sends the request again under its key. */
  readonly requestId: string
  /** What was asked for; none for a cancel. */
  readonly amount?: { readonly currency: string; readonly value: number }
  /** When it was stored or last written (a resend that got no answer writes nothing). */
  readonly since: string
  /** When its last send began: it can be dismissed a minute after (a send may be out until then). */
  readonly lastSentAt: string
  /**
   * The service's code when a send again was refused before it may have read the key (a 401 for a
   * clock that is off, a gateway's 404), or `IDEMPOTENCY_KEY_REUSED` when its key names another
   * request there: the request stays open, as an earlier send (or that request) may have been taken.
   */
  readonly lastRefusal?: string
}

/** The oldest `limit` modifications unanswered for longer than a payment may stay open. */
export async function openModifications(context: Pick<BackendContext, 'now' | 'store'>, limit: number): Promise<OpenModification[]> {
  const open = await context.store.listOpenModifications(openTooLongBefore(context), limit)
  return open.map((m) => ({
    orderId: m.orderId,
    kind: m.kind,
    requestId: m.id,
    ...(m.amount ? { amount: { currency: m.amount.currency, value: m.amount.value } } : {}),
    since: m.updatedAt,
    lastSentAt: lastSendOf(m),
    ...(m.errorCode ? { lastRefusal: m.errorCode } : {}),
  }))
}

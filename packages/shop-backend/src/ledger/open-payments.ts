// Payments whose outcome stayed open: no answer and no feed record settled them, so a person should look.
import type { BackendContext } from '../backend-context.js'

/** How long a payment's outcome may stay open before it is listed and counted: past any call, retries and a few polls. */
export const OPEN_TOO_LONG_MS = 15 * 60_000

/** The time before which an attempt still open has been open too long. */
export const openTooLongBefore = (context: Pick<BackendContext, 'now'>): string =>
  new Date(context.now().getTime() - OPEN_TOO_LONG_MS).toISOString()

/** An attempt open too long, as the admin sees it: where it stands and since when, never its key or answer. */
export interface OpenPayment {
  readonly orderId: string
  /** The attempt's number within its order. */
  readonly attempt: number
  /** `created` or `pending` (no final answer yet), `confirming` (the service confirms it later). */
  readonly state: string
  /** The payment method's type (`scheme` for a card). */
  readonly methodType: string
  /** When the attempt last changed. */
  readonly since: string
}

/** The oldest `limit` payments open too long. */
export async function openPayments(context: Pick<BackendContext, 'now' | 'store'>, limit: number): Promise<OpenPayment[]> {
  const attempts = await context.store.listOpenAttempts(openTooLongBefore(context), limit)
  return attempts.map((a) => ({ orderId: a.orderId, attempt: a.number, state: a.state, methodType: a.methodType, since: a.updatedAt }))
}

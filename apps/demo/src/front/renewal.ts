/**
 * The admin's renewal of a subscription: a paid order of a signed-in shopper is renewed as a new
 * order charged to the shopper's saved card without them (the shop's /api/admin/renewals, which
 * calls the back end's chargeSavedCard). A click's requestId is sent again until it gets an answer
 * (unanswered-requests.ts): a repeat of it charges nothing new.
 */
import type { PublicOrder } from './api.js'
import { sendForOrder } from './unanswered-requests.js'

/** The path of a renewal: its unanswered request is repeated by {@link renew}. */
export const RENEWALS_PATH = '/api/admin/renewals'

interface RenewalResult {
  readonly order: PublicOrder
  /** The card charged, as the service names its brand (no card library on the admin page for a name). */
  readonly card: { readonly brand?: string; readonly lastFour?: string }
  readonly resultCode: string
  readonly refusalReason?: string
}

/**
 * Renews `order` and says the outcome in `status`; `render` redraws the table with the new order.
 * With `repeatOnly`, only the order's unanswered renewal is sent again; answered meanwhile, that runs.
 */
export async function renew(
  order: { id: number; reference: string },
  status: HTMLElement,
  render: () => Promise<void>,
  repeatOnly?: () => Promise<void>,
): Promise<void> {
  status.textContent = `Renewing ${order.reference}…`
  const fresh = { path: RENEWALS_PATH, body: { orderId: order.id }, label: 'Renew subscription' }
  const sent = await sendForOrder<RenewalResult>(order.id, repeatOnly ? undefined : fresh)
  if (!sent) return repeatOnly?.()
  const { result, repeated } = sent
  await render()
  const why = result.refusalReason ? ` (${result.refusalReason})` : ''
  status.textContent =
    `Renewal of ${order.reference}${repeated ? ', sent again' : ''}: ${result.order.reference} charged to the saved card ending in ` +
    `${result.card.lastFour ?? '?'} (${result.card.brand ?? 'card'}): ${result.resultCode}${why}.`
}

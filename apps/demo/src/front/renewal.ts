/**
 * The admin's renewal of a subscription: a paid order of a signed-in shopper is renewed as a new
 * order charged to the shopper's saved card without them (the shop's /api/admin/renewals, which
 * calls the back end's chargeSavedCard). One requestId per click: a repeat of it charges nothing new.
 */
import { api, type PublicOrder } from './api.js'

interface RenewalResult {
  readonly order: PublicOrder
  /** The card charged, as the service names its brand (no card library on the admin page for a name). */
  readonly card: { readonly brand?: string; readonly lastFour?: string }
  readonly resultCode: string
  readonly refusalReason?: string
}

/** Renews `order` and says the outcome in `status`; `render` redraws the table with the new order. */
export async function renew(order: { id: number; reference: string }, status: HTMLElement, render: () => Promise<void>): Promise<void> {
  const requestId = crypto.randomUUID()
  status.textContent = `Renewing ${order.reference}…`
  const result = await api<RenewalResult>('/api/admin/renewals', { orderId: order.id, requestId })
  await render()
  const why = result.refusalReason ? ` (${result.refusalReason})` : ''
  status.textContent =
    `Renewal of ${order.reference}: ${result.order.reference} charged to the saved card ending in ${result.card.lastFour ?? '?'} ` +
    `(${result.card.brand ?? 'card'}): ${result.resultCode}${why}.`
}

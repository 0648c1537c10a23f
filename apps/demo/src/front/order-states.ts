/**
 * What the admin shows for each order state, and which of capture, refund and cancel the state can
 * take: one table, so the buttons and the wording never disagree with what the service accepts.
 */
export type OrderAction = 'capture' | 'refund' | 'cancel'

export const ORDER_STATES: Readonly<Record<string, { readonly label: string; readonly actions: readonly OrderAction[] }>> = Object.freeze({
  created: { label: 'Awaiting payment', actions: [] },
  pending: { label: 'Payment in progress', actions: [] },
  authorised: { label: 'Authorised', actions: ['capture', 'cancel'] },
  partially_captured: { label: 'Partly captured', actions: ['capture', 'refund'] },
  captured: { label: 'Captured', actions: ['refund'] },
  partially_refunded: { label: 'Partly refunded', actions: ['refund'] },
  refunded: { label: 'Refunded', actions: [] },
  cancelled: { label: 'Cancelled', actions: [] },
  refused: { label: 'Refused', actions: [] },
})

export const ACTION_LABELS: Readonly<Record<OrderAction, string>> = Object.freeze({
  capture: 'Capture',
  refund: 'Refund',
  cancel: 'Cancel',
})

/** A state the table does not know (the service may add some) shows as it comes and takes no action. */
export const stateOf = (status: string) => ORDER_STATES[status] ?? { label: status, actions: [] }

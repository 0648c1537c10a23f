// The operator's end of a capture, refund or cancel left open: settled by hand, never sent again.
import type { BackendContext } from '../backend-context.js'
import { ShopBackendError } from '../errors.js'
import type { ModificationRecord } from '../store/ledger-store.js'
import { lastSendOf, SEND_MAY_BE_OUT_MS } from './send-window.js'

/** What a dismiss answers: the request and when it was ended. */
export interface DismissedModification {
  readonly requestId: string
  readonly orderId: string
  /** `capture`, `refund` or `cancel`. */
  readonly kind: ModificationRecord['kind']
  readonly dismissedAt: string
}

const notOpen = () => new ShopBackendError('NOT_FOUND', 'requestId: no open capture, refund or cancel with this id')

/** A send began too recently: its answer may still come, so the request is not the operator's to end yet. */
function sendMayBeOut(context: BackendContext, row: ModificationRecord): ShopBackendError | undefined {
  const sentAt = lastSendOf(row)
  const after = new Date(Date.parse(sentAt) + SEND_MAY_BE_OUT_MS)
  if (context.now() >= after) return undefined
  return new ShopBackendError(
    'OUTCOME_PENDING',
    `requestId: this ${row.kind} was sent at ${sentAt} and its answer may still come; it can be dismissed from ${after.toISOString()}`,
    { requestId: row.id, sentAt, dismissableFrom: after.toISOString() },
  )
}

/**
 * Ends an open (`requested`) modification without sending it: `dismissed` by a compare-and-set on
 * the version read, under the order's lock. A plain call no longer settles it, and one asking the
 * same (it may be its retry) is answered `MODIFICATION_DISMISSED`, as is its `requestId`; its amount
 * and lines still count as asked. A send begins within SEND_START_BUDGET_MS of its stamp or moves the
 * version on again first, so none begins after the dismiss; one stamped within SEND_MAY_BE_OUT_MS
 * makes it 503 `OUTCOME_PENDING`.
 */
export async function dismissModification(context: BackendContext, requestId: string): Promise<DismissedModification> {
  const found = await context.store.findModification(requestId)
  if (found?.state !== 'requested') throw notOpen()
  return context.withLock(found.orderId, async () => {
    // A few rounds: a send again on another instance moves the version on without answering.
    for (let tries = 0; tries < 5; tries++) {
      const row = await context.store.findModification(requestId)
      if (row?.state !== 'requested') throw notOpen()
      const out = sendMayBeOut(context, row)
      if (out) throw out
      const at = context.now().toISOString()
      const written = await context.store.updateModification(row.id, row.version, {
        state: 'dismissed',
        ...(row.errorCode === undefined ? {} : { errorCode: row.errorCode }),
        updatedAt: at,
      })
      if (written) {
        context.log(`admin: ${row.kind} ${row.id} of order ${row.orderId} dismissed; it is not sent again`)
        return { requestId: row.id, orderId: row.orderId, kind: row.kind, dismissedAt: at }
      }
    }
    throw new ShopBackendError('OUTCOME_PENDING', 'requestId: the request kept changing; try again', { requestId })
  })
}

import { authenticate } from '../authenticate.js'
import { runDueCaptures } from '../capture-timing.js'
import { SandboxError } from '../errors.js'
import { json } from '../http/json.js'
import type { SandboxContext } from '../context.js'
import type { RequestContext } from '../http/handler.js'

export const DEFAULT_PAGE_SIZE = 100
export const MAX_PAGE_SIZE = 500

/**
 * GET /shopplatform/processor/updated-payments?after=CURSOR&limit=N (query and shape not shown in
 * the spec). Every change of a payment is one entry, with the state it had then; `cursor` is the
 * last entry's sequence. Asking again with `after=cursor` neither misses nor repeats an entry,
 * across restarts too, because sequences live in the database. A cursor never issued to the shop
 * is refused (CURSOR_UNKNOWN).
 */
export async function updatedPayments(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  // Delayed captures due by the sandbox's clock happen before the feed is read, so it shows them.
  runDueCaptures(context)
  const after = c.req.query('after') ?? '0'
  const limit = c.req.query('limit') ?? String(DEFAULT_PAGE_SIZE)
  if (!/^\d{1,15}$/.test(after) || !/^\d{1,3}$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_PAGE_SIZE) {
    throw new SandboxError('INVALID_REQUEST', `query: after must be a cursor (whole number), limit 1-${MAX_PAGE_SIZE}`)
  }
  // Only 0 or a sequence of this shop's own changes was ever handed out as a cursor. Anything else
  // (corrupted, another shop's, from the future) would silently list nothing, so it is refused.
  const issued = after === '0' || context.payments.issuedCursor(shop.shop_id, Number(after))
  if (!issued)
    throw new SandboxError(
      'CURSOR_UNKNOWN',
      'query: after is not a cursor this service issued to this shop; start from 0 or the cursor of your last answer',
    )
  const rows = context.payments.eventsAfter(shop.shop_id, Number(after), Number(limit) + 1)
  const page = rows.slice(0, Number(limit))
  return json({
    payments: page.map((r) => ({
      sequence: r.sequence,
      pspReference: r.psp_reference,
      status: r.status,
      amount: { currency: r.currency, value: r.value },
      capturedAmount: { currency: r.currency, value: r.captured },
      refundedAmount: { currency: r.currency, value: r.refunded },
      ...(r.reference ? { merchantReference: r.reference } : {}),
      metadata: JSON.parse(r.metadata) as unknown,
      changedAt: r.changed_at,
    })),
    cursor: page.at(-1)?.sequence ?? Number(after),
    hasMore: rows.length > page.length,
  })
}

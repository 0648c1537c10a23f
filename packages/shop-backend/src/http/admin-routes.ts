import type { Context, Hono } from 'hono'
import { stringMatching } from '@card-jwe/payment-validator'
import * as z from 'zod'
import type { BackendContext } from '../backend-context.js'
import { ShopBackendError } from '../errors.js'
import type { ModificationResult, ModifyOptions } from '../ledger/modify.js'
import { orderView } from '../ledger/order-view.js'
import type { Outbox } from '../ledger/outbox.js'
import { openPayments } from '../ledger/open-payments.js'
import { openModifications } from '../ledger/open-modifications.js'
import { dismissModification } from '../ledger/dismiss-modification.js'
import { ordersPaidTwice } from '../ledger/orders-paid-twice.js'
import { orderIdOfRecord } from '../updated-payments-feed.js'
import { isLedgerOrderId, LEDGER_ORDER_ID_RULE } from '../lib/ledger-order-id.js'
import { retryProblem } from '../poller/retry-problem.js'
import type { RequestInfo } from '../shop-backend-types.js'
import type { ModificationKind, OrderChange } from '../store/ledger-store.js'
import { json } from './answers.js'
import type { BackendEnv } from './backend-env.js'
import { jsonBody, readJsonBody } from './json-body.js'
import { onlyMethod } from './only-method.js'

/** The `admin` option of `createShopBackend`: without it, no admin route exists. */
export interface AdminOptions {
  /**
   * Whether the request comes from someone the shop lets act on payments: your own sign-in (a
   * session cookie, a token in a header). Called first, before any other part of the request is
   * read: read its headers only, not its body. False: 403 `FORBIDDEN`; a throw: 500.
   */
  readonly authorize: (request: Request, info: RequestInfo) => boolean | Promise<boolean>
  /** Where the admin routes are served; default {@link DEFAULT_ADMIN_BASE_PATH}. */
  readonly basePath?: string
}

/** The admin routes' base path unless `admin.basePath` says otherwise. */
export const DEFAULT_ADMIN_BASE_PATH = '/api/admin'

/** How many open problems, waiting deliveries and dismissed records the problems answer lists at most. */
const LISTED = 200

/** The admin routes' paths under `base`, in the `:param` form Hono and Fastify route by. */
export function adminPaths(base: string) {
  return Object.freeze({
    order: `${base}/orders/:orderId`,
    capture: `${base}/orders/:orderId/capture`,
    refund: `${base}/orders/:orderId/refund`,
    cancel: `${base}/orders/:orderId/cancel`,
    problems: `${base}/problems`,
    retryProblem: `${base}/problems/:sequence/retry`,
    dismissProblem: `${base}/problems/:sequence/dismiss`,
    retryDelivery: `${base}/deliveries/:id/retry`,
    dismissDelivery: `${base}/deliveries/:id/dismiss`,
    dismissModification: `${base}/modifications/:requestId/dismiss`,
  })
}

/** Whether a request path is one of `paths` (a `:param` is one path segment). */
export function pathMatcher(paths: readonly string[]): (pathname: string) => boolean {
  const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const patterns = paths.map(
    (path) =>
      new RegExp(
        `^${path
          .split(/:[A-Za-z]+/)
          .map(escapeRegExp)
          .join('[^/]+')}$`,
      ),
  )
  return (pathname) => patterns.some((pattern) => pattern.test(pathname))
}

const RequestIdSchema = stringMatching(/^[A-Za-z0-9_-]{8,64}$/, '8 to 64 characters of [A-Za-z0-9_-]')
const MoneySchema = z.strictObject({ currency: stringMatching(/^[A-Z]{3}$/, 'an ISO 4217 code'), value: z.int().min(1) })
/** Which of the order's payments (an order paid twice has two); the ledger checks it is one of them. */
const PspReferenceSchema = stringMatching(/^[\x21-\x7e]{1,100}$/, "a payment's reference: 1 to 100 printable characters")
const AmountActionSchema = z.strictObject({
  amount: MoneySchema.optional(),
  requestId: RequestIdSchema.optional(),
  pspReference: PspReferenceSchema.optional(),
})
/** A refund by line: the order's lines by `id`, each with how many (the ledger checks them against the payment). */
const RefundLinesSchema = z
  .array(z.strictObject({ id: z.string().min(1).max(100), quantity: z.int().min(1) }))
  .min(1)
  .max(1000)
const RefundSchema = AmountActionSchema.extend({ lineItems: RefundLinesSchema.optional() })
const CancelSchema = z.strictObject({ requestId: RequestIdSchema.optional(), pspReference: PspReferenceSchema.optional() })
/** The body's fields that were sent: an absent one is the option's default, never `undefined`. */
const given = <T extends object>(body: T) =>
  Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> }
const NoFieldsSchema = z.strictObject({})

/** A feed record as the admin sees it: references, status and amounts, nothing else it may carry. */
function feedSummary(record: Readonly<Record<string, unknown>>) {
  const pick = (key: string) => (record[key] === undefined ? {} : { [key]: record[key] })
  const orderId = orderIdOfRecord(record)
  return {
    ...pick('pspReference'),
    ...pick('status'),
    ...pick('amount'),
    ...pick('capturedAmount'),
    ...pick('refundedAmount'),
    ...(orderId === undefined ? {} : { orderId }),
  }
}

/** An order change as the admin sees it, field by field. */
const changeSummary = (change: OrderChange) => ({
  orderId: change.orderId,
  attempt: change.attempt,
  state: change.state,
  previousState: change.previousState,
  ...(change.resultCode === undefined ? {} : { resultCode: change.resultCode }),
  ...(change.pspReference === undefined ? {} : { pspReference: change.pspReference }),
  amount: change.amount,
  capturedValue: change.capturedValue,
  refundedValue: change.refundedValue,
  version: change.version,
})

/** A numeric path segment, or 404: no such record. */
function numberParam(c: Context<BackendEnv>, name: string, what: string): number {
  const raw = c.req.param(name) ?? ''
  if (!/^\d{1,15}$/.test(raw)) throw new ShopBackendError('NOT_FOUND', `${name}: no such ${what}`)
  return Number(raw)
}

/** A request id as the ledger makes or takes them, or 404: no such request. */
function requestIdParam(c: Context<BackendEnv>): string {
  const requestId = c.req.param('requestId') ?? ''
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(requestId)) throw new ShopBackendError('NOT_FOUND', 'requestId: no such capture, refund or cancel')
  return requestId
}

/** An order id the ledger can hold, or 404 naming the rule (a NUL would reach PostgreSQL and fail there). */
function orderIdParam(c: Context<BackendEnv>): string {
  const orderId = c.req.param('orderId') ?? ''
  if (!isLedgerOrderId(orderId)) throw new ShopBackendError('NOT_FOUND', `orderId: no such order (${LEDGER_ORDER_ID_RULE})`)
  return orderId
}

/**
 * The admin routes (JSON, never cached), on `app` under `admin.basePath`: an order's attempts and
 * modifications; capture, refund and cancel by the same ledger calls as `backend.capture` and the
 * others, and an open one to dismiss; the poll problems and waiting deliveries, each to retry now or dismiss. `authorize` runs
 * before each of them, before its body is read.
 */
export function addAdminRoutes(
  app: Hono<BackendEnv>,
  admin: AdminOptions,
  deps: {
    readonly context: BackendContext
    readonly outbox: Outbox
    readonly modify: (kind: ModificationKind, orderId: string, options: ModifyOptions) => Promise<ModificationResult>
    readonly maxBodyBytes: number
  },
): void {
  const { context, outbox, maxBodyBytes } = deps
  const base = admin.basePath ?? DEFAULT_ADMIN_BASE_PATH
  const { order, capture, refund, cancel, problems, ...on } = adminPaths(base)
  const now = () => context.now().toISOString()

  // First of all, for any path under the base (known or not): nothing is read or routed for a stranger.
  app.use(`${base}/*`, async (c, next) => {
    if ((await admin.authorize(c.req.raw, c.env.info)) !== true)
      throw new ShopBackendError('FORBIDDEN', "the admin routes need the shop's own sign-in")
    await next()
  })
  // JSON only: a cross-site form cannot send it without a CORS preflight (decisions.md).
  const body = jsonBody(maxBodyBytes)
  const post = (path: string, handler: (c: Context<BackendEnv>) => Promise<Response>) =>
    app.post(path, body, handler).all(path, onlyMethod('POST'))

  app.get(order, async (c) => json(200, await orderView(context, orderIdParam(c)))).all(order, onlyMethod('GET'))
  post(capture, async (c) => {
    const orderId = orderIdParam(c)
    return json(200, await deps.modify('capture', orderId, given(await readJsonBody(c, AmountActionSchema, maxBodyBytes))))
  })
  post(refund, async (c) => {
    const orderId = orderIdParam(c)
    return json(200, await deps.modify('refund', orderId, given(await readJsonBody(c, RefundSchema, maxBodyBytes))))
  })
  post(cancel, async (c) => {
    const orderId = orderIdParam(c)
    return json(200, await deps.modify('cancel', orderId, given(await readJsonBody(c, CancelSchema, maxBodyBytes))))
  })

  app
    .get(problems, async () => {
      const open = await context.store.listProblems()
      const waiting = await context.store.listOutbox(LISTED)
      const dismissed = await context.store.listDismissed(LISTED)
      const stillOpen = await openPayments(context, LISTED)
      const unanswered = await openModifications(context, LISTED)
      const paidTwice = await ordersPaidTwice(context, LISTED)
      return json(200, {
        openPayments: stillOpen,
        openModifications: unanswered,
        paidTwice,
        pollProblems: open.slice(0, LISTED).map((p) => ({
          sequence: p.sequence,
          reason: p.reason,
          tries: p.tries,
          nextTryAt: p.nextTryAt,
          record: feedSummary(p.change),
        })),
        deliveries: waiting.map((e) => ({ id: e.id, tries: e.tries, nextTryAt: e.nextTryAt, change: changeSummary(e.change) })),
        dismissed: {
          pollProblems: dismissed.problems.map((p) => ({
            sequence: p.sequence,
            reason: p.reason,
            tries: p.tries,
            dismissedAt: p.dismissedAt,
            record: feedSummary(p.change),
          })),
          deliveries: dismissed.deliveries.map((d) => ({
            id: d.id,
            tries: d.tries,
            dismissedAt: d.dismissedAt,
            change: changeSummary(d.change),
          })),
        },
      })
    })
    .all(problems, onlyMethod('GET'))

  post(on.retryProblem, async (c) => {
    const sequence = numberParam(c, 'sequence', 'open poll problem')
    await readJsonBody(c, NoFieldsSchema, maxBodyBytes)
    return json(200, await retryProblem(context, sequence))
  })
  post(on.dismissProblem, async (c) => {
    const sequence = numberParam(c, 'sequence', 'open poll problem')
    await readJsonBody(c, NoFieldsSchema, maxBodyBytes)
    const at = now()
    if (!(await context.store.dismissProblem(sequence, at)))
      throw new ShopBackendError('NOT_FOUND', 'sequence: no open poll problem with this sequence')
    context.log(`admin: updated-payments record ${sequence} dismissed; it is not applied`)
    return json(200, { sequence, dismissedAt: at })
  })
  post(on.retryDelivery, async (c) => {
    const id = numberParam(c, 'id', 'waiting delivery')
    await readJsonBody(c, NoFieldsSchema, maxBodyBytes)
    if (!(await context.store.retryDelivery(id, now()))) throw new ShopBackendError('NOT_FOUND', 'id: no waiting delivery with this id')
    await outbox.drain()
    // Still there: the shop's callback threw again, and the entry waits for its next try.
    const [left] = await context.store.listOutbox(1, id)
    return json(200, left?.id === id ? { id, delivered: false, tries: left.tries, nextTryAt: left.nextTryAt } : { id, delivered: true })
  })
  post(on.dismissDelivery, async (c) => {
    const id = numberParam(c, 'id', 'waiting delivery')
    await readJsonBody(c, NoFieldsSchema, maxBodyBytes)
    const at = now()
    if (!(await context.store.dismissDelivery(id, at))) throw new ShopBackendError('NOT_FOUND', 'id: no waiting delivery with this id')
    context.log(`admin: order change ${id} dismissed; onOrderChange is not called with it again`)
    // The order's later changes waited behind it: they go now.
    await outbox.drain()
    return json(200, { id, dismissedAt: at })
  })
  // Settled by hand in the service's back office (decisions.md): ended without being sent again.
  post(on.dismissModification, async (c) => {
    const requestId = requestIdParam(c)
    await readJsonBody(c, NoFieldsSchema, maxBodyBytes)
    return json(200, await dismissModification(context, requestId))
  })
}

// Sending a stored capture, refund or cancel under its key, and what the merchant is told of it.
import { ShopBackendError } from '../errors.js'
import { PaymentServiceError, type ModificationAnswer, type PaymentService, type RefundCall } from '../payment-service.js'
import type { ModificationKind, ModificationRecord, Money, RefundLine } from '../store/ledger-store.js'
import type { BackendContext } from '../backend-context.js'
import { keyUsedBefore, outcomeIsOpen, refusal } from './refusals.js'

/** What a capture, refund or cancel gave: received by the service; the outcome arrives through the feed. */
export interface ModificationResult {
  /** The request id it was stored under: repeat it after an unknown outcome. */
  readonly requestId: string
  /** The shop's order id, as text. */
  readonly orderId: string
  /** Capture, refund or cancel. */
  readonly kind: ModificationKind
  /** `received`: the service took it, the outcome comes through the feed; `refused`; `requested`: not answered yet. */
  readonly state: ModificationRecord['state']
  /** The service's reference of the modification. */
  readonly pspReference?: string | undefined
  /** What was asked for (capture and refund). */
  readonly amount?: Money | undefined
  /** A refund by line: the lines it gives back. */
  readonly lineItems?: readonly RefundLine[] | undefined
}

/** The outcome is unknown: the same call (or one with `details.requestId`) sends it again under its key. */
function unreachableModification(requestId: string): ShopBackendError {
  return new ShopBackendError(
    'SERVICE_UNREACHABLE',
    'The payment service could not be reached. Try again in a moment (the same call, or with details.requestId); nothing moves twice.',
    { requestId },
  )
}

/**
 * The service holds another request under this one's key: that one may have moved money, so this
 * stays `requested` (never refused, which would let a new key go) and the merchant is told.
 */
function keyNamesAnother(context: BackendContext, m: ModificationRecord): ShopBackendError {
  context.log(
    `order ${m.orderId}: ${m.kind} ${m.id} stays open (its key names another request at the service, IDEMPOTENCY_KEY_REUSED); ` +
      'check the payment in the back office before asking for more',
    'warn',
    { component: 'ledger', code: 'IDEMPOTENCY_KEY_REUSED', orderId: m.orderId },
  )
  return new ShopBackendError(
    'OUTCOME_PENDING',
    `The payment service holds another request under this ${m.kind}'s key; its outcome is unknown and nothing was sent again.`,
    { requestId: m.id },
  )
}

export const resultOf = (m: ModificationRecord): ModificationResult => ({
  requestId: m.id,
  orderId: m.orderId,
  kind: m.kind,
  state: m.state,
  pspReference: m.pspReference,
  amount: m.amount,
  ...(m.lineItems === undefined ? {} : { lineItems: m.lineItems }),
})

/** Sends a stored modification under its key and records the answer; an unknown outcome leaves it `requested`. */
export async function sendStored(context: BackendContext, modification: ModificationRecord): Promise<ModificationResult> {
  const attempt = await context.store.findAttempt(modification.attemptId)
  const { service } = await context.connection()
  // The body as stored: a retry (plain, by requestId, on another instance) sends the same lines under the same key.
  const call = { idempotencyKey: modification.idempotencyKey, ...(modification.lineItems ? { lineItems: modification.lineItems } : {}) }
  let answer: ModificationAnswer
  try {
    answer = await send(service, modification.kind, attempt!.pspReference!, modification.amount, call)
  } catch (error) {
    if (!(error instanceof PaymentServiceError)) throw error
    if (outcomeIsOpen(error)) throw unreachableModification(modification.id)
    if (keyUsedBefore(error)) throw keyNamesAnother(context, modification)
    await context.store.updateModification(modification.id, modification.version, {
      state: 'refused',
      errorCode: error.code,
      updatedAt: context.now().toISOString(),
    })
    throw modificationRefused(error, modification.kind)
  }
  const written = await context.store.updateModification(modification.id, modification.version, {
    state: 'received',
    pspReference: answer.pspReference,
    updatedAt: context.now().toISOString(),
  })
  return resultOf(written ?? (await context.store.findModification(modification.id))!)
}

/**
 * The service's no to a capture, refund or cancel (a state the feed has not shown yet): the
 * merchant's to judge, 409 with its code; stored refused, so its repeat answers refused. Not the
 * ledger's MODIFICATION_NOT_ALLOWED, which a later try may pass. 502 only when the service failed.
 */
function modificationRefused(error: PaymentServiceError, kind: ModificationKind): ShopBackendError {
  if (error.status === undefined || error.status >= 500) return refusal(error)
  return new ShopBackendError('MODIFICATION_REFUSED', `${kind}: the payment service refused it (${error.code})`, {
    serviceCode: error.code,
  })
}

function send(service: PaymentService, kind: ModificationKind, psp: string, amount: Money | undefined, call: RefundCall) {
  if (kind === 'cancel') return service.cancel(psp, call)
  return kind === 'capture' ? service.capture(psp, amount!, call) : service.refund(psp, amount!, call)
}

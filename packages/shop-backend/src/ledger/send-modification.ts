// Sending a stored capture, refund or cancel under its key, and what the merchant is told of it.
import { ShopBackendError } from '../errors.js'
import { PaymentServiceError, type ModificationAnswer, type PaymentService, type RefundCall } from '../payment-service.js'
import type { ModificationKind, ModificationPatch, ModificationRecord, Money, RefundLine } from '../store/ledger-store.js'
import type { BackendContext } from '../backend-context.js'
import { keyUsedBefore, outcomeIsOpen, refusal } from './refusals.js'
import { sayIfSignatureRefused, withSignatureWords } from '../lib/signature-refusal.js'
import { mayStillBegin } from './send-window.js'

/** What a capture, refund or cancel gave: received by the service; the outcome arrives through the feed. */
export interface ModificationResult {
  /** The request id it was stored under: repeat it after an unknown outcome. */
  readonly requestId: string
  /** The shop's order id, as text. */
  readonly orderId: string
  /** Capture, refund or cancel. */
  readonly kind: ModificationKind
  /** `received`: the service took it, the outcome comes through the feed (a refusal is a `MODIFICATION_REFUSED` error, its repeat too). */
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
 * stays `requested` (never refused, which would let a new key go) and the merchant is told, in the
 * log and in the admin's list of open requests (its code kept on the row).
 */
async function keyNamesAnother(context: BackendContext, m: ModificationRecord, error: PaymentServiceError): Promise<ShopBackendError> {
  await keepRefusal(context, m, error)
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

/** A stored request as the merchant heard it the first time: a refused one is its 409 again, never a 200 saying so. */
export function answerOf(m: ModificationRecord): ModificationResult {
  if (m.state === 'refused') throw refusedByService(m.kind, m.errorCode ?? 'UNKNOWN', m.id)
  if (m.state === 'dismissed')
    throw new ShopBackendError(
      'MODIFICATION_DISMISSED',
      `requestId: this ${m.kind} was dismissed by an operator and is not sent again; the order's totals show what the service did`,
      { requestId: m.id },
    )
  return resultOf(m)
}

/** A plain call asking what a dismissed request asked: it may be that request's retry, so nothing is sent. */
export function askedAsDismissed(m: ModificationRecord): ShopBackendError {
  return new ShopBackendError(
    'MODIFICATION_DISMISSED',
    `${m.kind}: asks what ${m.id} asked, which an operator dismissed; nothing is sent. A new ${m.kind} needs a requestId ` +
      (m.kind === 'cancel' ? 'of its own' : 'of its own and an amount ("the rest" counts the dismissed one as asked)'),
    { requestId: m.id },
  )
}

/**
 * Whether this is a stored modification's first send (right after its row was stored) or a send
 * again (its request id repeated, an open one settled by a plain call, on any instance).
 */
export type SendTurn = 'first' | 'again'

/** The modification's row as stored now, or `undefined` when it is gone. */
const storedNow = (context: BackendContext, m: ModificationRecord) => context.store.findModification(m.id)

/**
 * Writes `patch` on the row's version now while `writes(row)` holds, read again each time another
 * send moved it on: the row written, what it became instead, or `undefined` if it kept changing.
 */
async function writeOnCurrent(
  context: BackendContext,
  m: ModificationRecord,
  writes: (row: ModificationRecord) => boolean,
  patch: (row: ModificationRecord) => ModificationPatch,
): Promise<ModificationRecord | undefined> {
  for (let current: ModificationRecord | undefined = m, tries = 0; current && tries < 5; tries++) {
    if (!writes(current)) return current
    const written = await context.store.updateModification(current.id, current.version, patch(current))
    if (written) return written
    current = await storedNow(context, current)
  }
  return undefined
}

const isOpen = (row: ModificationRecord) => row.state === 'requested'

/** The refusal's code on the open row, for the admin's list; the request stays open whether or not it is kept. */
async function keepRefusal(context: BackendContext, m: ModificationRecord, error: PaymentServiceError): Promise<void> {
  await writeOnCurrent(context, m, isOpen, (row) => ({ state: 'requested', errorCode: error.code, updatedAt: row.updatedAt })).catch(
    () => undefined,
  )
}

/**
 * Moves an open row's version on before it is sent again, so the refusal of a send made before
 * (another instance's, its first) cannot end it under this one, and a dismiss sees the send out:
 * the row to send, or what it became.
 */
async function movedOn(context: BackendContext, m: ModificationRecord): Promise<ModificationRecord> {
  const keep = (row: ModificationRecord): ModificationPatch => ({
    state: 'requested',
    ...(row.errorCode === undefined ? {} : { errorCode: row.errorCode }),
    updatedAt: row.updatedAt,
    sentAgainAt: context.now().toISOString(),
  })
  const moved = await writeOnCurrent(context, m, isOpen, keep)
  if (moved) return moved
  throw new ShopBackendError('OUTCOME_PENDING', `${m.kind}: its request kept changing; try again`, { requestId: m.id })
}

/**
 * The row to send, its stamp (`createdAt` or `sentAgainAt`) recent: a dismiss counts from it, so a
 * send stalled past SEND_START_BUDGET_MS (a slow store, a paused process) moves the row on again,
 * and one dismissed meanwhile is not sent.
 */
async function stampedNow(context: BackendContext, m: ModificationRecord): Promise<ModificationRecord> {
  let row = m
  for (let tries = 0; row.state === 'requested' && !mayStillBegin(context.now(), row); tries++) {
    if (tries === 3)
      throw new ShopBackendError('OUTCOME_PENDING', `${m.kind}: the ledger is too slow to send it now; try again`, { requestId: m.id })
    row = await movedOn(context, row)
  }
  return row
}

/**
 * The service's own judgement of the request (422 in its envelope), which it makes after its key: a
 * key that holds a taken request gets that answer back, never a refusal, so nothing moved under this
 * one. Other refusals (401 for a clock that is off, a gateway's 404 or its 422 without the service's
 * envelope, a key it could not read) can come before the key is read.
 */
const judgedAfterKey = (error: PaymentServiceError) =>
  error.status === 422 && error.code !== 'HTTP_ERROR' && !error.code.startsWith('IDEMPOTENCY_KEY_')

/**
 * Sent again and refused before the service may have read the key: an earlier send may have moved
 * the money, so the row stays `requested` (the code kept for the admin) and only a send the service
 * answers settles it.
 */
async function refusedAgain(context: BackendContext, m: ModificationRecord, error: PaymentServiceError): Promise<ShopBackendError> {
  await keepRefusal(context, m, error)
  context.log(
    `order ${m.orderId}: ${m.kind} ${m.id} stays open (sent again and refused, ${error.code}: an earlier send may have been taken); ` +
      'it is sent again under its key on the next call',
    'warn',
    { component: 'ledger', code: error.code, orderId: m.orderId },
  )
  return new ShopBackendError(
    'OUTCOME_PENDING',
    `The payment service refused this ${m.kind} sent again (${error.code}); an earlier send may have been taken. ` +
      'Try again in a moment (the same call, or with details.requestId); nothing moves twice.',
    { requestId: m.id, serviceCode: error.code },
  )
}

/**
 * Sends a stored modification under its key and records the answer; an unknown outcome leaves it
 * `requested`. A refusal ends it when the service judged the request (422), or on its first send by
 * a compare-and-set on the version it was stored with; a send again (or a first send stalled past
 * its stamp) moves the version on first, and its other refusals leave the row open. An answer the
 * service gave is stored whatever happened to the row meanwhile: what it took, it took.
 */
export async function sendStored(context: BackendContext, stored: ModificationRecord, turn: SendTurn): Promise<ModificationResult> {
  const attempt = await context.store.findAttempt(stored.attemptId)
  const { service } = await context.connection()
  const modification = await stampedNow(context, turn === 'first' ? stored : await movedOn(context, stored))
  if (modification.state !== 'requested') return answerOf(modification)
  // Moved on (stalled past its stamp), a first send may follow another instance's send: refused as a send again.
  const onlySend = turn === 'first' && modification.version === stored.version
  // The body as stored: a retry (plain, by requestId, on another instance) sends the same lines under the same key.
  const call = { idempotencyKey: modification.idempotencyKey, ...(modification.lineItems ? { lineItems: modification.lineItems } : {}) }
  let answer: ModificationAnswer
  try {
    answer = await send(service, modification.kind, attempt!.pspReference!, modification.amount, call)
  } catch (error) {
    if (!(error instanceof PaymentServiceError)) throw error
    if (outcomeIsOpen(error)) throw unreachableModification(modification.id)
    if (keyUsedBefore(error)) throw await keyNamesAnother(context, modification, error)
    sayIfSignatureRefused(context.log, modification.orderId, error.code, 'ledger')
    const refused = (): ModificationPatch => ({ state: 'refused', errorCode: error.code, updatedAt: context.now().toISOString() })
    // The service's judgement ends it on its version now (moved on by another send meanwhile); any
    // other refusal only on the version it was stored with, no other send made.
    const ended = judgedAfterKey(error)
      ? await writeOnCurrent(context, modification, isOpen, refused)
      : onlySend
        ? await context.store.updateModification(modification.id, modification.version, refused())
        : undefined
    if (ended?.state === 'refused') throw modificationRefused(error, modification)
    // Answered meanwhile by another send (this key's first, taken): that answer, not this refusal.
    const now = ended ?? (await storedNow(context, modification))
    if (now && now.state !== 'requested') return answerOf(now)
    throw await refusedAgain(context, modification, error)
  }
  return resultOf(await storeReceived(context, modification, answer))
}

/** The service took it: `received` on the row's version now (moved on by a send again, or even refused by one before). */
async function storeReceived(context: BackendContext, sent: ModificationRecord, answer: ModificationAnswer): Promise<ModificationRecord> {
  const patch = (): ModificationPatch => ({ state: 'received', pspReference: answer.pspReference, updatedAt: context.now().toISOString() })
  const written = await writeOnCurrent(context, sent, (row) => row.state !== 'received', patch)
  if (written) return written
  throw new ShopBackendError('OUTCOME_PENDING', `${sent.kind}: taken by the payment service; its row kept changing`, { requestId: sent.id })
}

/**
 * The service's no to a capture, refund or cancel (a state the feed has not shown yet): the
 * merchant's to judge, 409 with its code; stored refused, so its repeat is the same 409. Not the
 * ledger's MODIFICATION_NOT_ALLOWED, which a later try may pass. 502 only when the service failed.
 */
function modificationRefused(error: PaymentServiceError, m: ModificationRecord): ShopBackendError {
  if (error.status === undefined || error.status >= 500) return refusal(error)
  return refusedByService(m.kind, error.code, m.id)
}

function refusedByService(kind: ModificationKind, serviceCode: string, requestId: string): ShopBackendError {
  return new ShopBackendError('MODIFICATION_REFUSED', `${kind}: the payment service refused it (${withSignatureWords(serviceCode)})`, {
    serviceCode,
    requestId,
  })
}

function send(service: PaymentService, kind: ModificationKind, psp: string, amount: Money | undefined, call: RefundCall) {
  if (kind === 'cancel') return service.cancel(psp, call)
  return kind === 'capture' ? service.capture(psp, amount!, call) : service.refund(psp, amount!, call)
}

import { createHash } from 'node:crypto'
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '@card-jwe/service-client/idempotency'
import { SandboxError } from './errors.js'
import type { KeptAnswer } from './answer-store.js'
import type { SandboxContext, ShopRow } from './context.js'
import type { RequestContext } from './http/handler.js'
import { json } from './http/json.js'

/**
 * A request's idempotency key, scoped to its shop, and a fingerprint of what the key names. The key
 * is stored on the row the request creates (payment or modification) in the same INSERT, so the
 * row and "this key was used" commit together: a crash can lose both or neither.
 */
export interface IdempotencyClaim {
  readonly scope: string
  readonly fingerprint: string
}

/**
 * `parts` are what must be the same on a retry. For a payment that is the path, amount, reference
 * and metadata, not the card blob or browser data, which a page re-encrypts and re-collects when it
 * submits again.
 */
export function claimOf(c: RequestContext, shop: ShopRow, parts: unknown): IdempotencyClaim | undefined {
  const header = c.req.header(IDEMPOTENCY_KEY_HEADER)
  if (header === undefined) return undefined
  if (!IDEMPOTENCY_KEY_PATTERN.test(header)) {
    throw new SandboxError('IDEMPOTENCY_KEY_INVALID', `${IDEMPOTENCY_KEY_HEADER}: 8 to 64 characters of [A-Za-z0-9_-]`)
  }
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([c.req.method, c.req.path, parts]))
    .digest('hex')
  return { scope: `${shop.shop_id}:${header}`, fingerprint }
}

/** Where a key's first request is kept: on its payment's or modification's row, or with its answer. */
type KeyTable = 'payments' | 'modifications' | 'kept_answers'

/**
 * A key is the shop's, not one endpoint's, as the widely used checkout APIs keep it: a key first
 * used on another endpoint (a payment's key sent again on a capture) is 422, and nothing runs. A
 * payment still being made counts (its row not stored yet); a payment checks again as it is stored.
 */
export function refuseIfUsedElsewhere(context: SandboxContext, claim: IdempotencyClaim, own: KeyTable): void {
  const used =
    (own !== 'payments' && (context.keysInUse.has(claim.scope) || context.payments.answerFor('payments', claim.scope) !== undefined)) ||
    (own !== 'modifications' && context.payments.answerFor('modifications', claim.scope) !== undefined) ||
    (own !== 'kept_answers' && context.answers.answerFor(claim.scope) !== undefined)
  if (used) throw new SandboxError('IDEMPOTENCY_KEY_REUSED', `${IDEMPOTENCY_KEY_HEADER}: already used for a different request`)
}

/** The first answer given under this key, or undefined if the key is new. */
export function replay(
  context: SandboxContext,
  table: 'payments' | 'modifications',
  claim: IdempotencyClaim | undefined,
  status: number,
): Response | undefined {
  if (!claim) return undefined
  refuseIfUsedElsewhere(context, claim, table)
  const row = context.payments.answerFor(table, claim.scope)
  if (!row) return undefined
  return answerAgain(context, claim, { fingerprint: row.idempotency_fingerprint, status, answer: row.idempotent_answer }, table)
}

/** A stored answer given again, when its key named the same request: else 422 IDEMPOTENCY_KEY_REUSED. */
function answerAgain(context: SandboxContext, claim: IdempotencyClaim, stored: KeptAnswer, where: string): Response {
  if (stored.fingerprint !== claim.fingerprint) {
    throw new SandboxError('IDEMPOTENCY_KEY_REUSED', `${IDEMPOTENCY_KEY_HEADER}: already used for a different request`)
  }
  context.log(`idempotent replay on ${where}`)
  return json(JSON.parse(stored.answer), stored.status)
}

export const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === 'SQLITE_CONSTRAINT_UNIQUE'

/**
 * For the calls whose rows keep no key (store creation, saved-card removal, the back-office user,
 * payment details):
 * the first answer under `claim`, or undefined when the key is new. The widely used checkout APIs
 * honour the key on every POST; a client's retry after a lost answer must not make a second store.
 */
export function keptAnswer(context: SandboxContext, claim: IdempotencyClaim | undefined): Response | undefined {
  if (!claim) return undefined
  refuseIfUsedElsewhere(context, claim, 'kept_answers')
  const kept = context.answers.answerFor(claim.scope)
  return kept && answerAgain(context, claim, kept, 'kept_answers')
}

/**
 * The JSON answer `body`, kept under `claim` when a success; called inside the transaction that
 * wrote it, so both commit or neither. A refusal is not kept.
 */
export function keepAnswer(context: SandboxContext, claim: IdempotencyClaim | undefined, body: unknown, status = 200): Response {
  if (claim && status < 300) {
    const answer = JSON.stringify(body ?? null)
    context.answers.keep(claim.scope, { fingerprint: claim.fingerprint, status, answer }, context.now().toISOString())
  }
  return json(body, status)
}

import { randomInt, timingSafeEqual } from 'node:crypto'
import { BackofficeUserRequestSchema, EmailVerificationRequestSchema } from '@card-jwe/payment-validator'
import * as z from 'zod'
import { authenticate } from '../authenticate.js'
import { SandboxError } from '../errors.js'
import { validBody } from '../http/parse-body.js'
import { claimOf, keepAnswer, keptAnswer } from '../idempotency.js'
import { json } from '../http/json.js'
import { nowSeconds } from '../lib/clock.js'
import { newId } from '../lib/ids.js'
import type { SandboxContext } from '../context.js'
import type { RequestContext } from '../http/handler.js'

/** How long a verification code can be spent. */
export const VERIFICATION_CODE_TTL_SECONDS = 10 * 60
/** Wrong guesses a code survives; six digits with five tries is a 1 in 200,000 chance. */
export const VERIFICATION_MAX_ATTEMPTS = 5
/** Codes one shop may have sent to one address within VERIFICATION_CODE_TTL_SECONDS. */
export const VERIFICATION_MAX_SENDS = 5

/**
 * POST /email-verification-messages (signed; body and answer not shown in the spec): `{email}`.
 * Sends a six-digit one-time code. No mail leaves the machine: the code goes to the sandbox's log
 * and to its inbox (GET /sandbox/inbox).
 */
export async function sendVerificationEmail(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  const email = validBody(c, EmailVerificationRequestSchema, 'email verification').email.toLowerCase()
  const now = nowSeconds(context)
  const recent = context.accounts.recentSends(shop.shop_id, email, now)
  if (recent.n >= VERIFICATION_MAX_SENDS) {
    // Retry-After: when the oldest of those codes expires and a send is allowed again.
    const retryAfter = Math.max(1, (recent.first ?? now) - now)
    throw new SandboxError(
      'VERIFICATION_RATE_LIMITED',
      `email: at most ${VERIFICATION_MAX_SENDS} codes per address in ${VERIFICATION_CODE_TTL_SECONDS / 60} minutes; use the latest code`,
      { retryAfterSeconds: retryAfter },
    )
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  const expiresAt = now + VERIFICATION_CODE_TTL_SECONDS
  context.accounts.insertCode(shop.shop_id, email, code, expiresAt, context.now().toISOString())
  context.log(`mail to ${email}: your verification code is ${code}`)
  return json({ email, status: 'sent', expiresAt: new Date(expiresAt * 1000).toISOString() }, 201)
}

const sameCode = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/**
 * PUT /shopplatform/processor/backoffice-user (body and answer not shown): `{email, code}`. Spends the
 * latest code sent to that address by this shop, once, and connects the shop to the merchant account
 * of that address (made on first use). Each refusal has its own code.
 */
export async function connectBackofficeUser(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  const body = validBody(c, BackofficeUserRequestSchema, 'backoffice user')
  const email = body.email.toLowerCase()
  const { accounts } = context
  // A retry after a lost answer repeats a spent code: it gets the first answer, not VERIFICATION_CODE_USED.
  const claim = claimOf(c, shop, { email, code: body.code })
  const kept = keptAnswer(context, claim)
  if (kept) return kept

  const outcome = context.db.transaction((): SandboxError | Response => {
    const rows = accounts.codesSent(shop.shop_id, email)
    const latest = rows[0]
    if (!latest)
      return new SandboxError(
        'VERIFICATION_NOT_REQUESTED',
        'email: no code was sent to this address for this shop; POST /email-verification-messages first',
      )
    const match = rows.find((row) => sameCode(row.code, body.code))
    if (match?.used_at) return new SandboxError('VERIFICATION_CODE_USED', 'code: already used; request a new one')
    if (latest.attempts >= VERIFICATION_MAX_ATTEMPTS)
      return new SandboxError('VERIFICATION_ATTEMPTS_EXCEEDED', `code: ${VERIFICATION_MAX_ATTEMPTS} wrong attempts; request a new one`)
    if (match && match !== latest) return new SandboxError('VERIFICATION_CODE_EXPIRED', 'code: a newer code was sent; use the latest')
    if (!match) {
      accounts.countWrongAttempt(latest.id)
      return new SandboxError(
        'VERIFICATION_CODE_WRONG',
        `code: does not match the code sent; ${VERIFICATION_MAX_ATTEMPTS - latest.attempts - 1} attempt(s) left`,
      )
    }
    if (match.expires_at < nowSeconds(context))
      return new SandboxError(
        'VERIFICATION_CODE_EXPIRED',
        `code: expired (valid for ${VERIFICATION_CODE_TTL_SECONDS / 60} minutes); request a new one`,
      )
    accounts.spendCode(match.id, context.now().toISOString())
    const accountId = accounts.findOrCreate(newId('acct'), email, context.now().toISOString())
    context.shops.connectAccount(shop.shop_id, accountId)
    return keepAnswer(context, claim, { email, status: 'connected' })
  })()
  // Wrong attempts are counted even though the request is refused: the refusal is returned, not thrown, inside.
  if (outcome instanceof SandboxError) throw outcome
  context.log(`backoffice user ${email} connected to ${shop.shop_id}`)
  return outcome
}

const InboxQuerySchema = z.object({ email: z.email().max(254) })

/**
 * GET /sandbox/inbox?email=… (sandbox only, unsigned, loopback): the mails the sandbox "sent" to an
 * address, newest first. Tests and the demo read verification codes here.
 */
export function inbox(c: RequestContext, context: SandboxContext): Response {
  const parsed = InboxQuerySchema.safeParse({ email: c.req.query('email') })
  if (!parsed.success) throw new SandboxError('INVALID_REQUEST', 'query: email must be an email address')
  const email = parsed.data.email.toLowerCase()
  const rows = context.accounts.inbox(email)
  return json({
    messages: rows.map((row) => ({
      to: email,
      subject: 'Your verification code',
      text: `Your verification code is ${row.code}. It is valid for ${VERIFICATION_CODE_TTL_SECONDS / 60} minutes and can be used once.`,
      code: row.code,
      sentAt: row.created_at,
    })),
  })
}

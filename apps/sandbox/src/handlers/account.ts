import { randomInt, timingSafeEqual } from 'node:crypto'
import { BackofficeUserRequestSchema, EmailVerificationRequestSchema } from '@card-jwe/payment-validator'
import { z } from 'zod'
import { authenticate } from '../authenticate.js'
import { SandboxError } from '../errors.js'
import { validBody } from '../http/body.js'
import { json } from '../http/respond.js'
import { nowSeconds } from '../lib/clock.js'
import { newId } from '../lib/ids.js'
import type { SandboxContext } from '../context.js'
import type { Params, SandboxRequest, SandboxResponse } from '../http/types.js'

/** How long a verification code can be spent. */
export const VERIFICATION_CODE_TTL_SECONDS = 10 * 60
/** Wrong guesses a code survives; six digits with five tries is a 1 in 200,000 chance. */
export const VERIFICATION_MAX_ATTEMPTS = 5
/** Codes one shop may have sent to one address within VERIFICATION_CODE_TTL_SECONDS. */
export const VERIFICATION_MAX_SENDS = 5

interface CodeRow {
  readonly id: number
  readonly code: string
  readonly expires_at: number
  readonly attempts: number
  readonly used_at: string | null
  readonly created_at: string
}

/**
 * POST /email-verification-messages (signed; body and answer not shown in the spec): `{email}`.
 * Sends a six-digit one-time code. No mail leaves the machine: the code goes to the sandbox's log
 * and to its inbox (GET /sandbox/inbox).
 */
export async function sendVerificationEmail(request: SandboxRequest, _params: Params, context: SandboxContext): Promise<SandboxResponse> {
  const shop = await authenticate(request, context)
  const email = validBody(request, EmailVerificationRequestSchema, 'email verification').email.toLowerCase()
  const now = nowSeconds(context)
  const recent = context.db
    .prepare('SELECT count(*) AS n, min(expires_at) AS first FROM verification_codes WHERE shop_id = ? AND email = ? AND expires_at > ?')
    .get(shop.shop_id, email, now) as { n: number; first: number | null }
  if (recent.n >= VERIFICATION_MAX_SENDS) {
    // Retry-After: when the oldest of those codes expires and a send is allowed again.
    const retryAfter = Math.max(1, (recent.first ?? now) - now)
    throw new SandboxError(
      429,
      'VERIFICATION_RATE_LIMITED',
      `email: at most ${VERIFICATION_MAX_SENDS} codes per address in ${VERIFICATION_CODE_TTL_SECONDS / 60} minutes; use the latest code`,
      'validation',
      retryAfter,
    )
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  const expiresAt = now + VERIFICATION_CODE_TTL_SECONDS
  context.db
    .prepare('INSERT INTO verification_codes (shop_id, email, code, expires_at, created_at) VALUES (?, ?, ?, ?, ?)')
    .run(shop.shop_id, email, code, expiresAt, context.now().toISOString())
  context.log(`mail to ${email}: your verification code is ${code}`)
  return json({ email, status: 'sent', expiresAt: new Date(expiresAt * 1000).toISOString() }, 201)
}

const sameCode = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/**
 * PUT /shopplatform/processor/backoffice-user (body and answer not shown): `{email, code}`. Spends the
 * latest code sent to that address by this shop, once, and connects the shop to the merchant account
 * of that address (made on first use). Each refusal has its own code.
 */
export async function connectBackofficeUser(request: SandboxRequest, _params: Params, context: SandboxContext): Promise<SandboxResponse> {
  const shop = await authenticate(request, context)
  const body = validBody(request, BackofficeUserRequestSchema, 'backoffice user')
  const email = body.email.toLowerCase()
  const db = context.db

  const outcome = db.transaction((): SandboxError | string => {
    const rows = db
      .prepare('SELECT * FROM verification_codes WHERE shop_id = ? AND email = ? ORDER BY id DESC')
      .all(shop.shop_id, email) as CodeRow[]
    const latest = rows[0]
    if (!latest)
      return new SandboxError(
        422,
        'VERIFICATION_NOT_REQUESTED',
        'email: no code was sent to this address for this shop; POST /email-verification-messages first',
      )
    const match = rows.find((row) => sameCode(row.code, body.code))
    if (match?.used_at) return new SandboxError(422, 'VERIFICATION_CODE_USED', 'code: already used; request a new one')
    if (latest.attempts >= VERIFICATION_MAX_ATTEMPTS)
      return new SandboxError(422, 'VERIFICATION_ATTEMPTS_EXCEEDED', `code: ${VERIFICATION_MAX_ATTEMPTS} wrong attempts; request a new one`)
    if (match && match !== latest) return new SandboxError(422, 'VERIFICATION_CODE_EXPIRED', 'code: a newer code was sent; use the latest')
    if (!match) {
      db.prepare('UPDATE verification_codes SET attempts = attempts + 1 WHERE id = ?').run(latest.id)
      return new SandboxError(
        422,
        'VERIFICATION_CODE_WRONG',
        `code: does not match the code sent; ${VERIFICATION_MAX_ATTEMPTS - latest.attempts - 1} attempt(s) left`,
      )
    }
    if (match.expires_at < nowSeconds(context))
      return new SandboxError(
        422,
        'VERIFICATION_CODE_EXPIRED',
        `code: expired (valid for ${VERIFICATION_CODE_TTL_SECONDS / 60} minutes); request a new one`,
      )
    db.prepare('UPDATE verification_codes SET used_at = ? WHERE id = ?').run(context.now().toISOString(), match.id)
    db.prepare('INSERT OR IGNORE INTO accounts (account_id, email, created_at) VALUES (?, ?, ?)').run(
      newId('acct'),
      email,
      context.now().toISOString(),
    )
    const account = db.prepare('SELECT account_id FROM accounts WHERE email = ?').get(email) as { account_id: string }
    // Another account's contractor must not stay current.
    db.prepare(
      'UPDATE shops SET account_id = ?, contractor_id = CASE WHEN account_id = ? THEN contractor_id ELSE NULL END WHERE shop_id = ?',
    ).run(account.account_id, account.account_id, shop.shop_id)
    return account.account_id
  })()
  // Wrong attempts are counted even though the request is refused: the refusal is returned, not thrown, inside.
  if (outcome instanceof SandboxError) throw outcome
  context.log(`backoffice user ${email} connected to ${shop.shop_id}`)
  return json({ email, status: 'connected' })
}

const InboxQuerySchema = z.object({ email: z.email().max(254) })

/**
 * GET /sandbox/inbox?email=… (sandbox only, unsigned, loopback): the mails the sandbox "sent" to an
 * address, newest first. Tests and the demo read verification codes here.
 */
export function inbox(request: SandboxRequest, _params: Params, context: SandboxContext): SandboxResponse {
  const parsed = InboxQuerySchema.safeParse({ email: request.url.searchParams.get('email') ?? undefined })
  if (!parsed.success) throw new SandboxError(422, 'INVALID_REQUEST', 'query: email must be an email address')
  const email = parsed.data.email.toLowerCase()
  const rows = context.db.prepare('SELECT * FROM verification_codes WHERE email = ? ORDER BY id DESC LIMIT 20').all(email) as CodeRow[]
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

import { html } from 'hono/html'
import { SandboxError } from '../errors.js'
import { toBase64Json } from '../lib/base64-json.js'
import { findPayment, updatePayment, type PaymentRow } from '../payment-store.js'
import { page } from './page.js'
import type { SandboxContext } from '../context.js'
import type { RequestContext } from '../http/handler.js'

function pendingRedirect(context: SandboxContext, transactionId: string | undefined): PaymentRow {
  const row = transactionId ? findPayment(context, 'transaction_id', transactionId) : undefined
  if (row?.status !== 'redirect_shopper') throw new SandboxError('NOT_FOUND', 'no redirect payment here')
  return row
}

/** What each answer on the page records; `decline` is the buy-now-pay-later provider's no (klarna only). */
const DECISIONS: Readonly<Record<string, string>> = { approve: 'approved', cancel: 'cancelled', decline: 'declined' }

/**
 * GET /redirect/{transaction}: the bank's page for a redirect method such as iDEAL, or the
 * buy-now-pay-later provider's (klarna), which approves or declines the shopper.
 */
export function bankPage(c: RequestContext, context: SandboxContext): Response | Promise<Response> {
  const row = pendingRedirect(context, c.req.param('transaction'))
  const action = (decision: string, label: string) => {
    const button = html`<button type="submit">${label}</button>`
    return html`<form method="post" action="/redirect/${row.transaction_id!}/${decision}" style="display:inline">${button}</form>`
  }
  if (row.method_type === 'klarna') {
    const offer = html`<h1>Sandbox pay later (klarna)</h1><p>Pay ${row.value} minor units of ${row.currency} in 30 days?</p>`
    return page(c, {
      title: 'Sandbox pay later',
      body: html`${offer}${action('approve', 'Approve')} ${action('decline', 'Decline')} ${action('cancel', 'Cancel')}`,
    })
  }
  const question = html`<h1>Sandbox bank (${row.method_type})</h1><p>Pay ${row.value} minor units of ${row.currency}?</p>`
  return page(c, {
    title: 'Sandbox bank',
    body: html`${question}${action('approve', 'Approve')} ${action('cancel', 'Cancel')}`,
  })
}

/** POST /redirect/{transaction}/{decision}: records the shopper's decision once, back to the shop's returnUrl. */
export function bankDecision(c: RequestContext, context: SandboxContext): Response {
  const decision = c.req.param('decision')
  let row = pendingRedirect(context, c.req.param('transaction'))
  const recorded = decision !== undefined && Object.hasOwn(DECISIONS, decision) ? DECISIONS[decision] : undefined
  if (!recorded || (decision === 'decline' && row.method_type !== 'klarna')) throw new SandboxError('NOT_FOUND', 'no such decision')
  if (row.acs_result === null) row = updatePayment(context, row, { acs_result: recorded })
  const back = new URL(row.return_url)
  back.searchParams.set('redirectResult', toBase64Json({ transactionId: row.transaction_id }, true))
  return c.redirect(back.toString(), 303)
}

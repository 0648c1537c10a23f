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

/** GET /redirect/{transaction}: the bank's page for a redirect method such as iDEAL. */
export function bankPage(c: RequestContext, context: SandboxContext): Response | Promise<Response> {
  const row = pendingRedirect(context, c.req.param('transaction'))
  const action = (decision: string, label: string) => {
    const button = html`<button type="submit">${label}</button>`
    return html`<form method="post" action="/redirect/${row.transaction_id!}/${decision}" style="display:inline">${button}</form>`
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
  if (decision !== 'approve' && decision !== 'cancel') throw new SandboxError('NOT_FOUND', 'no such decision')
  let row = pendingRedirect(context, c.req.param('transaction'))
  if (row.acs_result === null) row = updatePayment(context, row, { acs_result: decision === 'approve' ? 'approved' : 'cancelled' })
  const back = new URL(row.return_url)
  back.searchParams.set('redirectResult', toBase64Json({ transactionId: row.transaction_id }, true))
  return c.redirect(back.toString(), 303)
}

import { SandboxError } from '../errors.js'
import { html } from 'hono/html'
import { formOf } from '../http/parse-body.js'
import { fromBase64Json, toBase64Json } from '../lib/base64-json.js'
import { acsTransactionId, MESSAGE_VERSION } from '../lib/threeds-tokens.js'
import { findPayment, updatePayment, type PaymentRow } from '../payment-store.js'
import { autoPostForm, page } from './page.js'
import type { SandboxContext } from '../context.js'
import type { RequestContext } from '../http/handler.js'

/** The one answer the sandbox ACS accepts; anything else fails the challenge. */
export const CHALLENGE_ANSWER = 'password'

function paymentOfTransaction(
  context: SandboxContext,
  data: Record<string, unknown> | undefined,
  status: PaymentRow['status'],
): PaymentRow {
  const id = data?.threeDSServerTransID
  const row = typeof id === 'string' ? findPayment(context, 'transaction_id', id) : undefined
  if (!row || row.status !== status) throw new SandboxError('UNKNOWN_TRANSACTION', '3-D Secure: no transaction in this step')
  return row
}

/** POST /threeds/method: the issuer's 3DS Method page, loaded in a hidden iframe with threeDSMethodData. */
export function methodPage(c: RequestContext, context: SandboxContext): Response | Promise<Response> {
  const data = fromBase64Json(formOf(c).get('threeDSMethodData'))
  const row = paymentOfTransaction(context, data, 'identify_shopper')
  // EMV hands the result to the 3DS Server's notification URL; only our own is accepted.
  return page(c, {
    title: '3DS Method',
    body: autoPostForm(`${context.baseUrl}/threeds/method-notification`, {
      threeDSMethodData: toBase64Json({ threeDSServerTransID: row.transaction_id }, true),
    }),
  })
}

/** POST /threeds/method-notification: tells the shop's page (and only its origin) that the method ran. */
export function methodNotification(c: RequestContext, context: SandboxContext): Response | Promise<Response> {
  const row = paymentOfTransaction(context, fromBase64Json(formOf(c).get('threeDSMethodData')), 'identify_shopper')
  return page(c, {
    title: '3DS Method complete',
    body: html``,
    message: {
      data: { type: 'threeDSMethodCompleted', threeDSServerTransID: row.transaction_id, threeDSCompInd: 'Y' },
      targetOrigin: row.return_origin,
    },
  })
}

/** POST /threeds/acs: the challenge, posted a CReq in the challenge iframe. */
export function acsPage(c: RequestContext, context: SandboxContext): Response | Promise<Response> {
  const creq = formOf(c).get('creq') ?? ''
  const data = fromBase64Json(creq)
  const row = paymentOfTransaction(context, data, 'challenge_shopper')
  if (data?.acsTransID !== acsTransactionId(row.transaction_id!) || data?.messageType !== 'CReq')
    throw new SandboxError('INVALID_CREQ', '3-D Secure: CReq does not match the transaction')
  return page(c, {
    title: 'Sandbox bank: confirm your payment',
    body: html`<h1>Sandbox bank</h1>
<p>Confirm a payment of ${(row.value / 100).toFixed(2)}&nbsp;${row.currency} with your card ending ${row.card_last_four ?? ''}.</p>
<form method="post" action="/threeds/acs/answer">
<input type="hidden" name="creq" value="${creq}">
<label for="answer">Password (the sandbox accepts "${CHALLENGE_ANSWER}")</label>
<input id="answer" name="answer" type="password" autocomplete="off" required>
<button type="submit">Confirm</button>
</form>`,
  })
}

/** POST /threeds/acs/answer: records the shopper's answer once and hands the CRes to the notification URL. */
export function acsAnswer(c: RequestContext, context: SandboxContext): Response | Promise<Response> {
  const form = formOf(c)
  const data = fromBase64Json(form.get('creq'))
  let row = paymentOfTransaction(context, data, 'challenge_shopper')
  if (row.acs_result === null) row = updatePayment(context, row, { acs_result: form.get('answer') === CHALLENGE_ANSWER ? 'Y' : 'N' })
  const cres = {
    threeDSServerTransID: row.transaction_id,
    acsTransID: acsTransactionId(row.transaction_id!),
    messageVersion: MESSAGE_VERSION,
    messageType: 'CRes',
    transStatus: row.acs_result,
  }
  return page(c, {
    title: 'Sandbox bank',
    body: autoPostForm(`${context.baseUrl}/threeds/challenge-notification`, { cres: toBase64Json(cres, true) }),
  })
}

/** POST /threeds/challenge-notification: tells the shop's page the challenge result. */
export function challengeNotification(c: RequestContext, context: SandboxContext): Response | Promise<Response> {
  const data = fromBase64Json(formOf(c).get('cres'))
  const row = paymentOfTransaction(context, data, 'challenge_shopper')
  return page(c, {
    title: 'Challenge complete',
    body: html``,
    message: {
      data: { type: 'threeDSChallengeCompleted', threeDSServerTransID: row.transaction_id, transStatus: row.acs_result },
      targetOrigin: row.return_origin,
    },
  })
}

import { CHALLENGE_ANSWER } from '../pages/threeds.js'
import { fromBase64Json, toBase64Json } from '../lib/base64-json.js'
import { ShopperStepError } from './shopper-step-error.js'

/** A 3-D Secure 2 step of a sandbox answer's `action`. */
export interface ThreeDSAction {
  /** "threeDS2". */
  readonly type: 'threeDS2'
  /** The hidden 3DS Method (`fingerprint`) or the shopper's challenge. */
  readonly subtype: 'fingerprint' | 'challenge'
  /** The step's data, base64 JSON, as the answer carries it. */
  readonly token: string
}

/** A bank's page of a sandbox answer's `action` (iDEAL). */
export interface RedirectAction {
  /** "redirect". */
  readonly type: 'redirect'
  /** The sandbox's bank page. */
  readonly url: string
}

/** The `action` of a sandbox answer that asks the shopper for a step. */
export type ShopperAction = ThreeDSAction | RedirectAction

/** What the page sends on after the step: `POST /api/payment-details { orderId, details }` at your shop. */
export interface ShopperStepDetails {
  /** `threeDSResult` after a 3-D Secure step, `redirectResult` after the bank's page. */
  readonly details:
    | {
        /** base64 JSON of the step's result, as `@card-jwe/checkout-actions` sends it. */
        readonly threeDSResult: string
      }
    | {
        /** What the bank's page added to the way back. */
        readonly redirectResult: string
      }
}

/** A step page that answered an error: the step is over, or not this sandbox's. */
const notOpen = (page: string, status: number) =>
  new ShopperStepError('STEP_NOT_OPEN', status, `the sandbox's ${page} answered ${status}: is this step still open?`)
/** A step page that answered without what the page would send on. */
const withoutResult = (page: string, status: number, what: string) =>
  new ShopperStepError('STEP_WITHOUT_RESULT', status, `the sandbox's ${page} answered ${status} with no ${what}`)
const postForm = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' })
const fieldsOf = (token: string) => (fromBase64Json(token) ?? {}) as Record<string, string>
/** The page's `threeDSResult`: base64 JSON, as `@card-jwe/checkout-actions` sends it. */
const threeDSResult = (value: Record<string, string | undefined>) => ({ threeDSResult: toBase64Json(value) })

/** The issuer's hidden 3DS Method, run as the page's iframe posts it. */
async function fingerprint(token: string): Promise<ShopperStepDetails> {
  const step = fieldsOf(token)
  const data = toBase64Json(
    { threeDSServerTransID: step.threeDSServerTransID, threeDSMethodNotificationURL: step.threeDSMethodNotificationURL },
    true,
  )
  const method = await postForm(step.threeDSMethodUrl!, { threeDSMethodData: data })
  if (!method.ok) throw notOpen('3DS Method page', method.status)
  const notified = await postForm(step.threeDSMethodNotificationURL!, { threeDSMethodData: data })
  if (!notified.ok) throw notOpen('3DS Method', notified.status)
  return { details: threeDSResult({ threeDSCompInd: 'Y', threeDSServerTransID: step.threeDSServerTransID }) }
}

/** The challenge page, answered as the shopper types: the one accepted answer, or a wrong one. */
async function challenge(token: string, choice: 'approve' | 'refuse'): Promise<ShopperStepDetails> {
  const step = fieldsOf(token)
  const creq = toBase64Json(
    {
      threeDSServerTransID: step.threeDSServerTransID,
      acsTransID: step.acsTransID,
      messageVersion: step.messageVersion,
      messageType: 'CReq',
      challengeWindowSize: '02',
    },
    true,
  )
  const shown = await postForm(step.acsURL!, { creq })
  if (!shown.ok) throw notOpen('challenge page', shown.status)
  const answer = choice === 'approve' ? CHALLENGE_ANSWER : `not-${CHALLENGE_ANSWER}`
  const answered = await postForm(new URL('/threeds/acs/answer', step.acsURL).toString(), { creq, answer })
  if (!answered.ok) throw notOpen('challenge', answered.status)
  const cres = /name="cres" value="([^"]+)"/.exec(await answered.text())?.[1]
  if (!cres) throw withoutResult('challenge', answered.status, 'CRes')
  // The notification page tells the shop's page the result: its transStatus is what the page sends on.
  const notified = await postForm(step.threeDSNotificationURL!, { cres })
  if (!notified.ok) throw notOpen('challenge notification', notified.status)
  const transStatus = /"transStatus":"([A-Z])"/.exec(await notified.text())?.[1]
  if (!transStatus) throw withoutResult('challenge notification', notified.status, 'transStatus')
  return { details: threeDSResult({ transStatus, threeDSServerTransID: step.threeDSServerTransID }) }
}

/** The bank's page (iDEAL): Approve, or Cancel for `refuse`, and the way back's `redirectResult`. */
async function redirect(url: string, choice: 'approve' | 'refuse'): Promise<ShopperStepDetails> {
  const back = await fetch(`${url}/${choice === 'approve' ? 'approve' : 'cancel'}`, { method: 'POST', redirect: 'manual' })
  // Its way back is a redirect (3xx); an error is a bank page already left.
  if (back.status >= 400) throw notOpen('bank page', back.status)
  const redirectResult = new URL(back.headers.get('location') ?? '', url).searchParams.get('redirectResult')
  if (!redirectResult) throw withoutResult('bank page', back.status, 'redirectResult')
  return { details: { redirectResult } }
}

/**
 * Does a shopper's step of this sandbox without a browser, as plain form posts to its pages, and
 * gives the details the page would send on: the hidden 3DS Method (`choice` does not matter), the
 * challenge (`approve` types the accepted answer, `refuse` a wrong one), or the bank's page
 * (`approve`, `refuse` presses Cancel). For tests of a shop's payment-details path in Node;
 * `answerChallenge` does the same challenge in a real page.
 */
export function completeShopperStep(action: ShopperAction, choice: 'approve' | 'refuse' = 'approve'): Promise<ShopperStepDetails> {
  if (action.type === 'redirect') return redirect(action.url, choice)
  return action.subtype === 'fingerprint' ? fingerprint(action.token) : challenge(action.token, choice)
}

import { CHALLENGE_WINDOW_SIZES } from '@card-jwe/browser-info'
import { CheckoutActionError } from './errors.js'
import { encodeBase64Json } from './lib/base64-json.js'
import { createFrame, messageFrom, postForm } from './lib/frames.js'
import type { PreparedAction, PreparedChallenge, PreparedFingerprint, PreparedRedirect } from './prepare-action.js'
import { CHALLENGE_TIMEOUT_MS, THREEDS_METHOD_TIMEOUT_MS } from './timeouts.js'

/** Options of {@link performAction}. */
export interface PerformOptions {
  /** The shop's element the frames go into; a challenge is sized to fit it. */
  readonly container: HTMLElement
  /** Aborts a running step: its frame is removed and the promise rejects with `ERR_ABORTED`. */
  readonly signal?: AbortSignal
  /** How long the shopper may take over a challenge; default {@link CHALLENGE_TIMEOUT_MS}. */
  readonly challengeTimeoutMs?: number
  /** How long the 3DS Method may take; default EMV's {@link THREEDS_METHOD_TIMEOUT_MS}. */
  readonly methodTimeoutMs?: number
  /** The challenge frame's title, read out as focus enters it: in the page's language (default English). */
  readonly challengeTitle?: string
}

/** What the page does next: send `details` to the shop's payment-details endpoint, or nothing (it is leaving). */
export type ActionOutcome =
  | {
      /** The step is done: send these details on. */
      readonly kind: 'details'
      /** The body's `details` for payment-details. */
      readonly details: {
        /** base64 JSON: `{threeDSCompInd, threeDSServerTransID}` or `{transStatus, threeDSServerTransID}`. */
        readonly threeDSResult: string
      }
    }
  | {
      /** The page is navigating to the bank; it comes back to the `returnUrl`. */
      readonly kind: 'redirecting'
    }

const aborted = () => new CheckoutActionError('ERR_ABORTED', 'the action was aborted')

/** The 3DS Method's result for the service: whether it ran (Y), timed out (N) or there was none (U). */
const methodResult = (compInd: 'Y' | 'N' | 'U', transactionId: string): ActionOutcome => ({
  kind: 'details',
  details: { threeDSResult: encodeBase64Json({ threeDSCompInd: compInd, threeDSServerTransID: transactionId }) },
})

async function fingerprint(step: PreparedFingerprint, options: PerformOptions): Promise<ActionOutcome> {
  if (step.methodUrl === undefined) return methodResult('U', step.transactionId)
  const frame = createFrame(options.container, 'threeds-method', '3-D Secure device check')
  frame.hidden = true
  try {
    postForm(options.container, step.methodUrl, { threeDSMethodData: step.methodData }, frame.name)
    const expected = { frame, origin: step.notificationOrigin, type: 'threeDSMethodCompleted', transactionId: step.transactionId }
    const message = await messageFrom(expected, options.methodTimeoutMs ?? THREEDS_METHOD_TIMEOUT_MS, options.signal, aborted)
    // No answer in time is not a failure: the transaction goes on with "N" (EMV 3DS v2.2.0, 5.8).
    return methodResult(message ? 'Y' : 'N', step.transactionId)
  } finally {
    frame.remove()
  }
}

async function challenge(step: PreparedChallenge, options: PerformOptions): Promise<ActionOutcome> {
  const frame = createFrame(options.container, 'threeds-challenge', options.challengeTitle || 'Card verification by your bank')
  const { width, height } = CHALLENGE_WINDOW_SIZES[step.windowSize]
  // CSSOM, not a style attribute: a strict CSP (style-src without 'unsafe-inline') allows it.
  frame.style.width = width
  frame.style.height = height
  if (step.windowSize === '05') {
    // Full screen in a container of no set height: 100% alone is an iframe's default 150 px. The
    // second line stays only where the engine knows dvh (a phone's visible height).
    frame.style.minHeight = '100vh'
    frame.style.minHeight = '100dvh'
  }
  frame.style.border = '0'
  frame.scrollIntoView?.({ block: 'nearest' })
  try {
    postForm(options.container, step.acsUrl, { creq: step.creq }, frame.name)
    const expected = { frame, origin: step.notificationOrigin, type: 'threeDSChallengeCompleted', transactionId: step.transactionId }
    const message = await messageFrom(expected, options.challengeTimeoutMs ?? CHALLENGE_TIMEOUT_MS, options.signal, aborted)
    if (!message) throw new CheckoutActionError('ERR_CHALLENGE_TIMEOUT', 'challenge: no answer in time')
    const transStatus = String(message.transStatus ?? '').slice(0, 1)
    return { kind: 'details', details: { threeDSResult: encodeBase64Json({ transStatus, threeDSServerTransID: step.transactionId }) } }
  } finally {
    frame.remove()
  }
}

function redirect(step: PreparedRedirect, options: PerformOptions): ActionOutcome {
  if (step.method === 'GET') options.container.ownerDocument.defaultView!.location.assign(step.url)
  else postForm(options.container, step.url, step.data)
  return { kind: 'redirecting' }
}

/**
 * Does what a prepared action asks of the page (the "perform" half): the 3DS Method in a hidden
 * frame, the challenge in a frame sized by its EMV window, or the redirect. Every message is checked
 * for origin, source frame, type and transaction. Frames are removed however the step ends.
 */
export async function performAction(step: PreparedAction, options: PerformOptions): Promise<ActionOutcome> {
  // nodeType, not instanceof: the container may belong to another window (a frame).
  if (options?.container?.nodeType !== 1) throw new CheckoutActionError('ERR_ACTION_INVALID', 'options.container: an element')
  if (options.signal?.aborted) throw aborted()
  if (step.kind === 'fingerprint') return fingerprint(step, options)
  if (step.kind === 'challenge') return challenge(step, options)
  return redirect(step, options)
}

/**
 * 3-D Secure 2 in the browser without the processor's library, split as adyen-web does it:
 * prepare (pure: decode the token, check every field) and perform (iframes and form posts).
 */
import { CHALLENGE_WINDOW_SIZES, chooseChallengeWindowSize, type ChallengeWindowSize } from '@card-jwe/browser-info'
import { decodeBase64Json, encodeBase64Json } from './base64.js'

/** EMV: the 3DS Method must finish within 10 seconds, else the transaction goes on without it. */
export const THREEDS_METHOD_TIMEOUT_MS = 10_000
/** How long a shopper may take over a challenge before the page gives up. */
export const CHALLENGE_TIMEOUT_MS = 10 * 60_000

function text(token: Record<string, unknown>, field: string): string {
  const value = token[field]
  if (typeof value !== 'string' || value === '') throw new Error(`threeDS2 token: ${field} missing`)
  return value
}

function httpUrl(token: Record<string, unknown>, field: string): URL {
  const url = new URL(text(token, field))
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`threeDS2 token: ${field} is not an http(s) URL`)
  return url
}

export interface PreparedFingerprint {
  readonly methodUrl: string
  /** Only messages from this origin are taken as the method's result. */
  readonly notificationOrigin: string
  readonly transactionId: string
  readonly methodData: string
}

export function prepareFingerprint(tokenText: string): PreparedFingerprint {
  const token = decodeBase64Json(tokenText)
  const notification = httpUrl(token, 'threeDSMethodNotificationURL')
  const transactionId = text(token, 'threeDSServerTransID')
  return {
    methodUrl: httpUrl(token, 'threeDSMethodUrl').toString(),
    notificationOrigin: notification.origin,
    transactionId,
    methodData: encodeBase64Json({ threeDSServerTransID: transactionId, threeDSMethodNotificationURL: notification.toString() }, true),
  }
}

export interface PreparedChallenge {
  readonly acsUrl: string
  readonly notificationOrigin: string
  readonly transactionId: string
  readonly windowSize: ChallengeWindowSize
  readonly creq: string
}

export function prepareChallenge(tokenText: string, container: { width: number; height: number }): PreparedChallenge {
  const token = decodeBase64Json(tokenText)
  const transactionId = text(token, 'threeDSServerTransID')
  const windowSize = chooseChallengeWindowSize(container)
  return {
    acsUrl: httpUrl(token, 'acsURL').toString(),
    notificationOrigin: httpUrl(token, 'threeDSNotificationURL').origin,
    transactionId,
    windowSize,
    creq: encodeBase64Json({ threeDSServerTransID: transactionId, acsTransID: text(token, 'acsTransID'), messageVersion: text(token, 'messageVersion'), messageType: 'CReq', challengeWindowSize: windowSize }, true),
  }
}

/** Posts fields into an iframe through a form, as the EMV browser flow does. */
function postInto(frame: HTMLIFrameElement, url: string, fields: Record<string, string>): void {
  const form = document.createElement('form')
  form.method = 'post'
  form.action = url
  form.target = frame.name
  form.hidden = true
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input')
    input.type = 'hidden'
    input.name = name
    input.value = value
    form.append(input)
  }
  document.body.append(form)
  form.submit()
  form.remove()
}

/** The first message from `origin`, sent by `frame`, of `type`, for this transaction; undefined on timeout. */
function messageFrom(frame: HTMLIFrameElement, origin: string, type: string, transactionId: string, timeoutMs: number): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve) => {
    const done = (data: Record<string, unknown> | undefined) => {
      clearTimeout(timer)
      window.removeEventListener('message', listen)
      resolve(data)
    }
    const listen = (event: MessageEvent) => {
      // Strict: the expected origin, the iframe we opened, the message type and our transaction.
      if (event.origin !== origin || event.source !== frame.contentWindow) return
      const data = event.data as Record<string, unknown> | null
      if (data?.type === type && data.threeDSServerTransID === transactionId) done(data)
    }
    const timer = setTimeout(() => done(undefined), timeoutMs)
    window.addEventListener('message', listen)
  })
}

function iframe(name: string, parent: HTMLElement, title: string): HTMLIFrameElement {
  const frame = document.createElement('iframe')
  frame.name = name
  frame.title = title
  parent.append(frame)
  return frame
}

/** Runs the 3DS Method in a hidden iframe; the result the service takes as `details.threeDSResult`. */
export async function performFingerprint(prepared: PreparedFingerprint, parent: HTMLElement): Promise<string> {
  const frame = iframe(`threeds-method-${prepared.transactionId}`, parent, '3-D Secure device check')
  frame.hidden = true
  postInto(frame, prepared.methodUrl, { threeDSMethodData: prepared.methodData })
  const message = await messageFrom(frame, prepared.notificationOrigin, 'threeDSMethodCompleted', prepared.transactionId, THREEDS_METHOD_TIMEOUT_MS)
  frame.remove()
  return encodeBase64Json({ threeDSCompInd: message ? 'Y' : 'N', threeDSServerTransID: prepared.transactionId })
}

/** Shows the issuer's challenge in an iframe of the chosen size; resolves with the threeDSResult. */
export async function performChallenge(prepared: PreparedChallenge, parent: HTMLElement): Promise<string> {
  const frame = iframe(`threeds-challenge-${prepared.transactionId}`, parent, 'Card verification by your bank')
  const { width, height } = CHALLENGE_WINDOW_SIZES[prepared.windowSize]
  // CSSOM, not a style attribute: the page's CSP allows no inline style attributes.
  frame.style.width = width
  frame.style.height = height
  frame.className = 'challenge-frame'
  postInto(frame, prepared.acsUrl, { creq: prepared.creq })
  const message = await messageFrom(frame, prepared.notificationOrigin, 'threeDSChallengeCompleted', prepared.transactionId, CHALLENGE_TIMEOUT_MS)
  frame.remove()
  if (!message) throw new Error('the card verification timed out')
  return encodeBase64Json({ transStatus: message.transStatus, threeDSServerTransID: prepared.transactionId })
}

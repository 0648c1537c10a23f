import { chooseChallengeWindowSize, type ChallengeWindowSize } from '@card-jwe/browser-info'
import { CheckoutActionError } from './errors.js'
import { decodeBase64Json, encodeBase64Json } from './lib/base64-json.js'
import { invalid, pageUrl, text, transactionId } from './lib/checks.js'

/** The 3DS Method to run in a hidden frame (action `threeDS2`, subtype `fingerprint`). */
export type PreparedFingerprint = PreparedMethod | PreparedNoMethod

/** A fingerprint whose issuer has a 3DS Method: it runs in a hidden frame. */
export interface PreparedMethod {
  /** What kind of step this is. */
  readonly kind: 'fingerprint'
  /** The transaction every message must name. */
  readonly transactionId: string
  /** The issuer's 3DS Method URL, posted to in the frame. */
  readonly methodUrl: string
  /** Only messages from this origin are taken as the method's result. */
  readonly notificationOrigin: string
  /** `threeDSMethodData`, base64url JSON (EMV 3DS v2.2.0, Table A.2). */
  readonly methodData: string
}

/** A fingerprint whose issuer has no 3DS Method: nothing runs, the step ends at once with "U" (EMV 3DS v2.2.0, 5.8). */
export interface PreparedNoMethod {
  /** What kind of step this is. */
  readonly kind: 'fingerprint'
  /** The transaction the result names. */
  readonly transactionId: string
  /** None: the issuer has no 3DS Method. */
  readonly methodUrl?: undefined
}

/** The issuer's challenge to show in a frame (action `threeDS2`, subtype `challenge`). */
export interface PreparedChallenge {
  /** What kind of step this is. */
  readonly kind: 'challenge'
  /** The ACS URL, posted to in the frame. */
  readonly acsUrl: string
  /** Only messages from this origin are taken as the challenge's result. */
  readonly notificationOrigin: string
  /** The transaction every message must name. */
  readonly transactionId: string
  /** The EMV window size that fits the shop's container. */
  readonly windowSize: ChallengeWindowSize
  /** The CReq, base64url JSON (EMV 3DS v2.2.0, Table B.1). */
  readonly creq: string
}

/** A redirect to the shopper's bank: a GET navigation or a POST form. */
export interface PreparedRedirect {
  /** What kind of step this is. */
  readonly kind: 'redirect'
  /** Where the page goes. */
  readonly url: string
  /** GET navigates; POST submits a form with `data`. */
  readonly method: 'GET' | 'POST'
  /** The form's fields for a POST. */
  readonly data: Readonly<Record<string, string>>
}

/** An action, checked and ready to perform. */
export type PreparedAction = PreparedFingerprint | PreparedChallenge | PreparedRedirect

/** The container's size in CSS pixels, for the challenge window. */
export interface ContainerSize {
  /** Width in CSS pixels. */
  readonly width: number
  /** Height in CSS pixels. */
  readonly height: number
}

function tokenOf(action: Record<string, unknown>): Record<string, unknown> {
  const token = typeof action.token === 'string' && action.token.length <= 16_384 ? decodeBase64Json(action.token) : null
  if (!token) throw invalid('action.token', 'base64 JSON object')
  return token
}

function prepareFingerprint(action: Record<string, unknown>): PreparedFingerprint {
  const token = tokenOf(action)
  const id = transactionId(token, 'threeDSServerTransID', 'token')
  // An issuer without a 3DS Method sends no URL (or an empty or null one): not a broken action.
  const url = token.threeDSMethodUrl
  if (url === undefined || url === null || url === '') return { kind: 'fingerprint', transactionId: id }
  const notification = pageUrl(token.threeDSMethodNotificationURL, 'token.threeDSMethodNotificationURL')
  return {
    kind: 'fingerprint',
    transactionId: id,
    methodUrl: pageUrl(url, 'token.threeDSMethodUrl').href,
    notificationOrigin: notification.origin,
    methodData: encodeBase64Json({ threeDSServerTransID: id, threeDSMethodNotificationURL: notification.href }, true),
  }
}

function prepareChallenge(action: Record<string, unknown>, container: ContainerSize): PreparedChallenge {
  const token = tokenOf(action)
  const id = transactionId(token, 'threeDSServerTransID', 'token')
  const acsTransId = transactionId(token, 'acsTransID', 'token')
  const messageVersion = text(token, 'messageVersion', 'token', 16)
  if (!/^2\.\d{1,2}\.\d{1,2}$/.test(messageVersion)) throw invalid('token.messageVersion', 'a 3-D Secure 2 version (2.x.y)')
  const windowSize = chooseChallengeWindowSize(container)
  return {
    kind: 'challenge',
    acsUrl: pageUrl(token.acsURL, 'token.acsURL').href,
    notificationOrigin: pageUrl(token.threeDSNotificationURL, 'token.threeDSNotificationURL').origin,
    transactionId: id,
    windowSize,
    creq: encodeBase64Json(
      { threeDSServerTransID: id, acsTransID: acsTransId, messageVersion, messageType: 'CReq', challengeWindowSize: windowSize },
      true,
    ),
  }
}

function prepareRedirect(action: Record<string, unknown>): PreparedRedirect {
  const url = pageUrl(action.url, 'action.url')
  const method = action.method ?? 'GET'
  if (method !== 'GET' && method !== 'POST') throw invalid('action.method', 'GET or POST')
  const data: Record<string, string> = {}
  if (action.data !== undefined) {
    if (typeof action.data !== 'object' || action.data === null || Array.isArray(action.data))
      throw invalid('action.data', 'an object of strings')
    for (const [name, value] of Object.entries(action.data)) {
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw invalid('action.data', 'field names of letters, digits and _ . - only')
      if (typeof value !== 'string' || value.length > 16_384) throw invalid(`action.data.${name}`, 'a string of at most 16384 characters')
      data[name] = value
    }
  }
  return { kind: 'redirect', url: url.href, method, data }
}

/**
 * Checks a payment response's `action` completely and turns it into what the page must do, before
 * anything touches the DOM (the "prepare" half of adyen-web's split). Throws `ERR_ACTION_INVALID`
 * naming the field, or `ERR_ACTION_UNSUPPORTED`. `container` sizes a challenge.
 */
export function prepareAction(action: unknown, container: ContainerSize = { width: 600, height: 400 }): PreparedAction {
  if (typeof action !== 'object' || action === null || Array.isArray(action)) throw invalid('action', 'an object')
  const record = action as Record<string, unknown>
  if (record.type === 'redirect') return prepareRedirect(record)
  if (record.type !== 'threeDS2') throw new CheckoutActionError('ERR_ACTION_UNSUPPORTED', 'action.type: redirect or threeDS2')
  if (record.subtype === 'fingerprint') return prepareFingerprint(record)
  if (record.subtype === 'challenge') return prepareChallenge(record, container)
  throw new CheckoutActionError('ERR_ACTION_UNSUPPORTED', 'action.subtype: fingerprint or challenge')
}

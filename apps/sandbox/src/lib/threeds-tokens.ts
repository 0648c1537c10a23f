import { toBase64Json } from './base64-json.js'

/** EMV 3DS protocol version the sandbox speaks. */
export const MESSAGE_VERSION = '2.2.0'

/** The fingerprint step's token, shaped as the widely used checkout API's `threeDS2` action carries it. */
export function fingerprintToken(baseUrl: string, transactionId: string): string {
  return toBase64Json({
    threeDSMethodNotificationURL: `${baseUrl}/threeds/method-notification`,
    threeDSMethodUrl: `${baseUrl}/threeds/method`,
    threeDSServerTransID: transactionId,
  })
}

/** The challenge step's token. acsTransID is derived per transaction, so it needs no storage. */
export function challengeToken(baseUrl: string, transactionId: string): string {
  return toBase64Json({
    acsReferenceNumber: 'CARD-JWE-SANDBOX-ACS',
    acsTransID: acsTransactionId(transactionId),
    acsURL: `${baseUrl}/threeds/acs`,
    messageVersion: MESSAGE_VERSION,
    threeDSNotificationURL: `${baseUrl}/threeds/challenge-notification`,
    threeDSServerTransID: transactionId,
  })
}

/** A stable ACS transaction id for a 3DS Server transaction (the sandbox plays both roles). */
export function acsTransactionId(transactionId: string): string {
  return `acs-${transactionId}`
}

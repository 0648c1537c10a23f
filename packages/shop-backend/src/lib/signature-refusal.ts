// The service's refusals of the shop's signature, in the merchant's words: the code alone sends them hunting.
import { MAX_SIGNATURE_SKEW_SECONDS } from '@card-jwe/service-client'
import type { Log } from '../telemetry/log.js'

/** What a refusal of the shop's signature means and what mends it; undefined for any other code. */
export function signatureRefusalWords(code: string): string | undefined {
  // The service answers an unknown shop as a wrong signature, so the words name both.
  if (code === 'SIGNATURE_INVALID')
    return (
      "the service knows no shop with this ledger's shop id and service secret (another shop's values, the shop " +
      'registered again elsewhere, or a sandbox on a new data folder): connect the current values, or give a new shop a new ledger; ' +
      "or something between the shop and the service changed the request's path or body"
    )
  if (code === 'SIGNATURE_STALE')
    return `the shop's clock is more than ${MAX_SIGNATURE_SKEW_SECONDS / 60} minutes from the service's: set it right (NTP)`
  return undefined
}

/** `code`, with its words when it is a refusal of the shop's signature: for the parentheses of a log line or a message. */
export const withSignatureWords = (code: string): string => {
  const words = signatureRefusalWords(code)
  return words ? `${code}: ${words}` : code
}

/** A call for an order refused for the shop's signature is the merchant's to mend: said with what it means. */
export function sayIfSignatureRefused(log: Log, orderId: string, code: string, component: 'checkout' | 'ledger' = 'checkout'): void {
  const words = signatureRefusalWords(code)
  if (words)
    log(`order ${orderId}: the payment service refused the shop's signature (${code}); ${words}`, 'error', { component, code, orderId })
}

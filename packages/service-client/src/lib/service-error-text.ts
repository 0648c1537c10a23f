// What the client keeps of a refusal's text: an echoed input (a proxy's page, a faulty service) would reach the shop's logs.

/** A card number's length, its digits maybe grouped by spaces, dots or dashes. */
const CARD_NUMBER_LIKE = /\d(?:[ .-]?\d){11,18}/g
/** Longer than any of the service's own messages: an echoed body is cut, not logged whole. */
const MAX_MESSAGE_LENGTH = 300
/** An error code as the service's envelope names one. */
const SERVICE_ERROR_CODE = /^[A-Z][A-Z0-9_]{0,63}$/
/** An error type as the envelope names one (`validation`, `security`...). */
const SERVICE_ERROR_TYPE = /^[a-z][a-z_]{0,31}$/

/** The service's `message`, cut short and with any card-number-like digits masked. */
export function serviceMessage(message: string): string {
  const masked = message.replace(CARD_NUMBER_LIKE, '[digits]')
  return masked.length > MAX_MESSAGE_LENGTH ? `${masked.slice(0, MAX_MESSAGE_LENGTH)}…` : masked
}

const named = (value: unknown, pattern: RegExp) => (typeof value === 'string' && pattern.test(value) ? value : undefined)

/** The envelope's `errorCode` when it reads as one; anything else (an echoed value) is not taken. */
export const serviceErrorCode = (value: unknown): string | undefined => named(value, SERVICE_ERROR_CODE)
/** The envelope's `errorType` when it reads as one. */
export const serviceErrorType = (value: unknown): string | undefined => named(value, SERVICE_ERROR_TYPE)

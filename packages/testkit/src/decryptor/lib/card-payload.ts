import { DecryptionError } from '../errors.js'

/** The decrypted card as the spec's "Card payload for JWE" defines it. */
export interface DecryptedCard {
  /** 12-19 digits. */
  readonly number: string
  /** "01"-"12". */
  readonly expiryMonth: string
  /** Four digits. */
  readonly expiryYear: string
  /** 3 or 4 digits; absent for brands without a code. */
  readonly cvc?: string
  /** Name on the card, when the page sent one. */
  readonly holderName?: string
  /** When the page encrypted the card, ISO 8601 UTC. */
  readonly generationtime: string
  /** Fields the spec does not name are passed through, as the service does. */
  readonly [extra: string]: unknown
}

// The spec's formats, checked as the service checks them (and independently of card-jwe's code).
const NUMBER = /^[0-9]{12,19}$/
const MONTH = /^(0[1-9]|1[0-2])$/
const YEAR = /^[0-9]{4}$/
// "three digits, or four for one card network": American Express, whose numbers start 34 or 37.
const AMEX = /^3[47]/
/**
 * ISO 8601 in UTC: `Z` as `Date.prototype.toISOString()` writes it, or the offset `+00:00` as other
 * languages' libraries do (Python's `isoformat()`); fractions of a second optional, up to
 * nanoseconds. Any other offset (also `-00:00`, "UTC unknown" in RFC 3339 4.3) is not UTC.
 */
export const GENERATION_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|\+00:00)$/

function invalid(detail: string): DecryptionError {
  return new DecryptionError('INVALID_CARD_DETAILS', detail)
}

/** The plaintext as a JSON object, or `Invalid card details`: every payload of the service is one. */
export function parsePayloadObject(plaintext: Uint8Array): Record<string, unknown> {
  let payload: unknown
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plaintext))
  } catch {
    throw invalid('payload: not UTF-8 JSON')
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw invalid('payload: not a JSON object')
  return payload as Record<string, unknown>
}

/** Parses the plaintext and checks each field's format; throws `Invalid card details` on any break. */
export function parseCardPayload(plaintext: Uint8Array): DecryptedCard {
  const card = parsePayloadObject(plaintext)
  const text = (name: string, rule: RegExp, what: string) => {
    if (typeof card[name] !== 'string' || !rule.test(card[name])) throw invalid(`${name}: ${what}`)
  }
  text('number', NUMBER, 'must be 12 to 19 digits, nothing else')
  text('expiryMonth', MONTH, 'must be "01" to "12"')
  text('expiryYear', YEAR, 'must be four digits')
  if (card.cvc !== undefined) {
    text('cvc', AMEX.test(card.number as string) ? /^[0-9]{4}$/ : /^[0-9]{3}$/, 'must be 3 digits, 4 for American Express')
  }
  if (card.holderName !== undefined && typeof card.holderName !== 'string') throw invalid('holderName: must be a string')
  text('generationtime', GENERATION_TIME, 'must be an ISO 8601 UTC timestamp')
  return card as DecryptedCard
}

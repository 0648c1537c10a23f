import { CardCaptureError } from './errors.js'
import type { CapturedCard } from './inspect-card-jwe.js'

/** What the test typed into the page: a test card from the catalogue fits. */
export interface TypedCard {
  /** As typed; spaces and dashes are ignored. */
  readonly number: string
  /** One or two digits. */
  readonly expiryMonth: string
  /** Two or four digits. */
  readonly expiryYear: string
  /** Absent when the card has no code. */
  readonly securityCode?: string
  /** Compared only when given. */
  readonly holderName?: string
}

const digits = (text: string) => text.replace(/[\s-]/g, '')

/**
 * Throws `CARD_MISMATCH` unless the captured card is exactly the typed one. The message names the
 * field and how it differs (length, position), never either value.
 */
export function matchTypedCard(captured: CapturedCard, typed: TypedCard): void {
  const { card, request } = captured
  const fail = (detail: string) => {
    throw new CardCaptureError('CARD_MISMATCH', `${request}: ${detail}; what the page encrypted must be exactly what the shopper typed`)
  }
  const sent = card.number
  const wanted = digits(typed.number)
  if (sent.length !== wanted.length) fail(`number: ${sent.length} digits encrypted, ${wanted.length} typed`)
  const differsAt = [...wanted].findIndex((digit, i) => sent[i] !== digit)
  if (differsAt >= 0) fail(`number: digit ${differsAt + 1} of ${wanted.length} differs from the typed one`)
  if (card.expiryMonth !== typed.expiryMonth.padStart(2, '0')) fail('expiryMonth: not the typed month')
  const year = typed.expiryYear.length === 2 ? `20${typed.expiryYear}` : typed.expiryYear
  if (card.expiryYear !== year) fail('expiryYear: not the typed year')
  // The payload names the typed security code `cvc`, as the spec does.
  if ((card.cvc ?? '') !== (typed.securityCode ?? ''))
    fail(typed.securityCode ? 'cvc: not the typed security code' : 'cvc: sent, though none was typed')
  if (typed.holderName !== undefined && card.holderName !== typed.holderName.trim()) fail('holderName: not the typed name')
}

import { CardJweError, type CardIssue } from './errors.js'
import { expiryVerdict, type ExpiryInput } from './expiry-verdict.js'
import { holderNameVerdict } from './holder-name-verdict.js'
import { numberVerdict } from './number-verdict.js'
import { securityCodeVerdict } from './security-code-verdict.js'
import { payloadSecurityCode, securityCodeOf } from './lib/security-code.js'
import { stripSeparators, textOf } from './lib/text.js'
import type { Clock } from './lib/clock.js'
import type { FieldVerdict } from './verdict.js'

/** A card as typed: "4111 1111-1111 1111", month "3", year "30" are all fine. */
export interface CardInput {
  /** Card number as typed; spaces and dashes are fine. */
  readonly number: string
  /** Month as typed ("3" or "03"); give it with `expiryYear`, or give `expiry` instead. */
  readonly expiryMonth?: string | number
  /** Year as typed ("30" or "2030"). */
  readonly expiryYear?: string | number
  /** Month and year typed in one field ("03/30", "0330"), used when `expiryMonth` and `expiryYear` are absent. */
  readonly expiry?: string
  /** Security code; leave empty for brands that have none. */
  readonly securityCode?: string
  /**
   * The security code under its former name, read only when `securityCode` is absent.
   * @deprecated Use `securityCode`; the JWE payload still calls it `cvc`.
   */
  readonly cvc?: string
  /** Name on the card, as typed; optional. */
  readonly holderName?: string
}

/**
 * The strict payload fields of the spec's "Card payload for JWE" (without `generationtime`), under
 * the spec's names: the security code is `cvc` here.
 */
export interface NormalizedCard {
  /** Digits only. */
  readonly number: string
  /** "01"-"12". */
  readonly expiryMonth: string
  /** Four digits. */
  readonly expiryYear: string
  /** Present unless the brand has no code: 3 digits, 4 for American Express. */
  readonly cvc?: string
  /** Present when given, trimmed. */
  readonly holderName?: string
}

/** The outcome of {@link checkCard}: the normalised card, or every field and rule that failed. */
export type CardCheck =
  | {
      /** Every field passed. */
      readonly ok: true
      /** The strict payload fields. */
      readonly card: NormalizedCard
    }
  | {
      /** At least one field failed. */
      readonly ok: false
      /** Every field and rule that failed, never a value. */
      readonly issues: readonly CardIssue[]
    }

/** Options of {@link normalizeCard} and {@link checkCard}. */
export interface NormalizeOptions {
  /** Clock for the expiry check. */
  readonly now?: Clock
}

function expiryInputOf(input: CardInput): ExpiryInput {
  if (input.expiryMonth !== undefined || input.expiryYear !== undefined) {
    return { month: input.expiryMonth ?? '', year: input.expiryYear ?? '' }
  }
  return textOf(input.expiry)
}

/** Checks every field and, when all pass, returns the strict payload. Never throws on card values. */
export function checkCard(input: CardInput, options: NormalizeOptions = {}): CardCheck {
  if (typeof input !== 'object' || input === null) {
    throw new CardJweError('ERR_INVALID_ARGUMENT', 'card: expected an object')
  }
  const number = numberVerdict(input.number)
  const expiry = expiryVerdict(expiryInputOf(input), options)
  // Without a brand (invalid number) the code is judged on its own: three or four digits.
  const securityCode = securityCodeVerdict(securityCodeOf(input), number.brand)
  const holderName = holderNameVerdict(textOf(input.holderName))

  const issues: CardIssue[] = []
  for (const verdict of [number, expiry, securityCode, holderName] as FieldVerdict[]) {
    if (!verdict.isValid) issues.push({ field: verdict.field!, rule: verdict.rule! })
  }
  if (issues.length > 0) return { ok: false, issues }

  const code = securityCodeOf(input).trim()
  const name = textOf(input.holderName).trim()
  const card: NormalizedCard = {
    number: stripSeparators(input.number),
    expiryMonth: expiry.month!,
    expiryYear: expiry.year!,
    ...payloadSecurityCode(code),
    ...(name === '' ? {} : { holderName: name }),
  }
  return { ok: true, card }
}

/** The strict payload, or a CardJweError `ERR_CARD_INVALID` whose `issues` name each field and rule. */
export function normalizeCard(input: CardInput, options: NormalizeOptions = {}): NormalizedCard {
  const result = checkCard(input, options)
  if (result.ok) return result.card
  const list = result.issues.map((i) => `${i.field} (${i.rule})`).join(', ')
  throw new CardJweError('ERR_CARD_INVALID', `invalid card: ${list}`, { issues: result.issues })
}

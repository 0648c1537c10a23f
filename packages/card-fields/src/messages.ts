import type { CardBrandType, FieldRule, SecurityCodeSpec } from 'card-jwe'

/** The fields card-fields attaches to. */
export type CardFieldName = 'number' | 'expiry' | 'expiryMonth' | 'expiryYear' | 'securityCode' | 'holderName'

/** One field's messages: one per rule it can break, and `invalid` for any rule without its own. */
export type FieldMessages = Readonly<Partial<Record<FieldRule, string>>> & {
  /** Said when the rule broken has no message of its own. */
  readonly invalid: string
}

/** Every text card-fields shows or announces, in one language. */
export interface CardFieldMessages {
  /** Error messages per field and rule. */
  readonly errors: Readonly<Record<CardFieldName, FieldMessages>>
  /** The security code's label: the brand's code, null when its cards have none, undefined while the brand is unknown. */
  readonly securityCodeLabel: (code: SecurityCodeSpec | null | undefined) => string
}

/** A shop's changes to a locale's messages: any text, any field, any rule. */
export interface CardFieldMessagesOverride {
  /** Replaces the messages given, field by field. */
  readonly errors?: Partial<Record<CardFieldName, Partial<FieldMessages>>>
  /** Replaces the label text. */
  readonly securityCodeLabel?: (code: SecurityCodeSpec | null | undefined) => string
}

/** Brand names as the schemes write them, the same in every language: for a shop that shows the brand. */
export const BRAND_NAMES: Readonly<Record<CardBrandType, string>> = Object.freeze({
  visa: 'Visa',
  mastercard: 'Mastercard',
  'american-express': 'American Express',
  discover: 'Discover',
  'diners-club': 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  maestro: 'Maestro',
  bancontact: 'Bancontact',
})

/** The locale's messages with the shop's changes laid over them. */
export function mergeMessages(base: CardFieldMessages, override: CardFieldMessagesOverride = {}): CardFieldMessages {
  const errors = { ...base.errors }
  for (const [field, messages] of Object.entries(override.errors ?? {}) as Array<[CardFieldName, Partial<FieldMessages>]>) {
    errors[field] = { ...base.errors[field], ...messages }
  }
  return {
    errors,
    securityCodeLabel: override.securityCodeLabel ?? base.securityCodeLabel,
  }
}

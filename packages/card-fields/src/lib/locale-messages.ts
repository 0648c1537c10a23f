import type { FieldRule } from 'card-jwe'
import type { CardFieldMessages } from '../messages.js'

/** A message for each rule a field can break, and `invalid`: none left to fall back on. */
type Every<R extends FieldRule> = Readonly<Record<R | 'invalid', string>>

type ExpiryRule = 'required' | 'characters' | 'format' | 'month' | 'expired' | 'too-far-ahead'

/**
 * What a locale of card-fields must say: `CardFieldMessages` with every message of every field, so
 * a locale that forgets one fails to compile (a shop's own `CardFieldMessages` may still leave
 * some to `invalid`). Type only: no bytes in a bundle.
 */
export interface LocaleMessages extends CardFieldMessages {
  readonly errors: {
    readonly number: Every<'required' | 'characters' | 'brand' | 'luhn' | 'length'>
    readonly expiry: Every<ExpiryRule>
    readonly expiryMonth: Every<ExpiryRule>
    readonly expiryYear: Every<ExpiryRule>
    readonly securityCode: Every<'required' | 'characters' | 'length'>
    readonly holderName: Every<'characters' | 'length'>
  }
}

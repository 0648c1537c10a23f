import { expiryVerdict, holderNameVerdict, numberVerdict, securityCodeVerdict, type CardBrand, type FieldVerdict } from 'card-jwe'
import type { CardFieldName } from '../messages.js'

/** What each field holds now; a field the form does not have reads as ''. */
export type TypedValues = Readonly<Partial<Record<CardFieldName, string>>>

/** What a verdict depends on besides the text: the number's brand and the clock for "expired". */
export interface VerdictContext {
  /** The brand the number field shows (null while unknown). */
  readonly brand: CardBrand | null
  /** Clock for "expired"; card-jwe's real time when absent. */
  readonly now?: (() => Date) | undefined
}

/** The most digits the code field takes: the brand's code size, 4 while the brand is unknown (CID is the longest). */
export function securityCodeSize(brand: CardBrand | null): number {
  return brand?.code ? brand.code.size : 4
}

/**
 * One field's verdict from card-jwe. Month and year are judged together, as one date; the field the
 * verdict blames carries the error and the other reads as fine, so one mistake shows once.
 */
export function fieldVerdict(name: CardFieldName, typed: TypedValues, context: VerdictContext): FieldVerdict {
  const value = (field: CardFieldName) => typed[field] ?? ''
  switch (name) {
    case 'number':
      return numberVerdict(value('number'))
    case 'expiry':
      return expiryVerdict(value('expiry'), context)
    case 'expiryMonth':
    case 'expiryYear': {
      const pair = expiryVerdict({ month: value('expiryMonth'), year: value('expiryYear') }, context)
      const blamed = pair.field === 'expiryMonth' ? 'expiryMonth' : 'expiryYear'
      return pair.isValid || blamed === name ? pair : { isValid: true, isPotentiallyValid: true }
    }
    case 'securityCode':
      return securityCodeVerdict(value('securityCode'), context.brand)
    case 'holderName':
      return holderNameVerdict(value('holderName'))
  }
}

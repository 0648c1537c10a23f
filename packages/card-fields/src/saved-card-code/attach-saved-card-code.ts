import { savedCardBrand } from 'card-jwe'
import { CardFieldsError } from '../errors.js'
import { attachFields } from '../lib/attach-fields.js'
import type { SavedCardCode, SavedCardCodeOptions } from '../types.js'

/**
 * The saved-card mode: a returning shopper pays with a card the service keeps, so the form has only
 * the security-code input. Its length and label follow the saved card's brand (4 digits for
 * American Express; no field for brands without a code), and `values()` is what card-jwe's
 * `encryptSecurityCode` takes to make the code-only JWE. The page passes its locale's words, so it
 * ships no others. Never stores, logs or emits a value.
 */
export function attachSavedCardCode(options: SavedCardCodeOptions): SavedCardCode {
  if (typeof options?.brand !== 'string') throw new CardFieldsError('ERR_INVALID_ARGUMENT', "brand: the saved card's brand, a string")
  const brand = savedCardBrand(options.brand)
  const needsCode = brand?.code !== null
  if (needsCode && !options.securityCode) throw new CardFieldsError('ERR_INVALID_ARGUMENT', 'securityCode: required for this brand')
  if (!options.messages) throw new CardFieldsError('ERR_INVALID_ARGUMENT', 'messages: required')
  const fields = attachFields(
    {
      // The shared options as given; the one input and its error in the shape of the card form's.
      ...options,
      fields: options.securityCode ? { securityCode: options.securityCode } : {},
      ...(options.error ? { errors: { securityCode: options.error } } : {}),
    },
    options.messages,
    { brand },
  )
  // The card form's methods but its own values() and no brand(): the saved card's brand never changes.
  const { values: _cardValues, brand: _brand, ...methods } = fields
  return {
    ...methods,
    needsCode,
    values: () => ({ securityCode: needsCode ? (options.securityCode?.value ?? '') : '', brand: options.brand }),
  }
}

import { savedCardBrand } from 'card-jwe'
import { CardFieldsError } from './errors.js'
import { attachFields } from './lib/attach-fields.js'
import type { SavedCardCode, SavedCardCodeOptions } from './types.js'

/**
 * The saved-card mode: a returning shopper pays with a card the service keeps, so the form has only
 * the security-code input. Its length and label follow the saved card's brand (4 digits for
 * American Express; no field for brands without a code), and `values()` is what card-jwe's
 * `encryptSecurityCode` takes to make the code-only JWE. Never stores, logs or emits a value.
 */
export function attachSavedCardCode(options: SavedCardCodeOptions): SavedCardCode {
  if (typeof options?.brand !== 'string') throw new CardFieldsError('ERR_INVALID_ARGUMENT', 'brand: the saved card’s brand, a string')
  const brand = savedCardBrand(options.brand)
  const needsCode = brand?.code !== null
  if (needsCode && !options.securityCode) throw new CardFieldsError('ERR_INVALID_ARGUMENT', 'securityCode: required for this brand')
  const fields = attachFields(
    {
      fields: options.securityCode ? { securityCode: options.securityCode } : {},
      ...(options.error ? { errors: { securityCode: options.error } } : {}),
      ...(options.announcer ? { announcer: options.announcer } : {}),
      ...(options.securityCodeLabel ? { securityCodeLabel: options.securityCodeLabel } : {}),
      ...(options.securityCodeContainer ? { securityCodeContainer: options.securityCodeContainer } : {}),
      ...(options.messages ? { messages: options.messages } : {}),
      ...(options.onChange ? { onChange: options.onChange } : {}),
    } as Parameters<typeof attachFields>[0],
    { brand },
  )
  return {
    needsCode,
    values: () => ({ securityCode: needsCode ? (options.securityCode?.value ?? '') : '', brand: options.brand }),
    validate: fields.validate,
    clear: fields.clear,
    setDisabled: fields.setDisabled,
    destroy: fields.destroy,
  }
}

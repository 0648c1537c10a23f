export { attachCardFields } from './attach-card-fields.js'
export type { CardFieldChange, CardFieldInputs, CardFields, CardFieldsOptions, SavedCardCode, SavedCardCodeOptions } from './types.js'
export { editCardNumber, reformatCardNumber } from './edit-card-number.js'
export {
  EXPIRY_SEPARATOR,
  editExpiry,
  editExpiryMonth,
  editExpiryYear,
  parseWholeExpiry,
  reformatExpiry,
  reformatExpiryPart,
  splitWholeExpiry,
} from './edit-expiry.js'
export { editSecurityCode, reformatSecurityCode } from './edit-security-code.js'
export type { ExpiryParts } from './edit-expiry.js'
export type { EditResult, FieldEdit, FieldState } from './field-edit.js'
export { CardFieldsError } from './errors.js'
export type { CardFieldsErrorCode } from './errors.js'
export { BRAND_NAMES, mergeMessages } from './messages.js'
export type { CardFieldMessages, CardFieldMessagesOverride, CardFieldName, FieldMessages } from './messages.js'
export { MESSAGES_EN } from './messages-en.js'
export { pickLocale } from './pick-locale.js'
export type { CardFieldsLocale } from './pick-locale.js'

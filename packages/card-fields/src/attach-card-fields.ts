import { attachFields } from './lib/attach-fields.js'
import { MESSAGES_EN } from './messages-en.js'
import type { CardFields, CardFieldsOptions } from './types.js'

/**
 * Attaches to a shop's own card inputs: formatting as the shopper types with the caret kept where
 * it was, the brand from card-jwe's table, verdicts shown and announced, and `values()` for
 * `encryptCard`. Adds no elements and no iframes; never stores, logs or emits a value.
 */
export function attachCardFields(options: CardFieldsOptions): CardFields {
  return attachFields(options, MESSAGES_EN)
}

import { CardFieldsError } from '../errors.js'
import { attachFields } from '../lib/attach-fields.js'
import type { CardFieldMessages } from '../messages.js'
import type { CardFields, CardFieldsOptions } from '../types.js'

/** {@link CardFieldsOptions} with the page's words required: a locale's `messages`, or the shop's own whole set. */
export interface CardFieldsInOptions extends Omit<CardFieldsOptions, 'messages'> {
  /** Every word the fields say, from `@card-jwe/card-fields/locales/<tag>` (changed with `mergeMessages` if you like). */
  readonly messages: CardFieldMessages
}

/**
 * The root entry's `attachCardFields` without English built in: a page that shows one other
 * language ships that language's words only.
 */
export function attachCardFields(options: CardFieldsInOptions): CardFields {
  if (!options?.messages) throw new CardFieldsError('ERR_INVALID_ARGUMENT', 'messages: required')
  return attachFields(options, options.messages)
}

/**
 * `@card-jwe/card-fields/saved-card-code`: a saved card's code field alone, for a returning shopper.
 * An entry of its own, with no words of its own: a page without saved cards does not load it, and
 * one with them in any language ships only that language's words.
 */
export { attachSavedCardCode } from './attach-saved-card-code.js'
export type { SavedCardCode, SavedCardCodeOptions } from '../types.js'

/**
 * `@card-jwe/checkout/saved-cards`: a signed-in shopper's saved cards on the checkout's form, each
 * paid with only its code typed. An entry of its own: a page without saved cards does not load it.
 */
export { mountSavedCards } from './mount-saved-cards.js'
export type { SavedCardChoice, SavedCards, SavedCardsOptions } from './mount-saved-cards.js'

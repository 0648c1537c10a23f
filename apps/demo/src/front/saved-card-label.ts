/** A saved card as the shop's API gives it to the pages, and how the pages name it to the shopper. */
import { BRAND_NAMES } from '@card-jwe/card-fields'
import { savedCardBrand } from 'card-jwe'

/** What /api/config?orderId= and the account API show of a saved card: never the holder's name. */
export type SavedCardChoice = { readonly id: string } & Partial<
  Readonly<Record<'brand' | 'lastFour' | 'expiryMonth' | 'expiryYear', string>>
>

/** The words around a card's brand, ending and expiry; English by default (the account page's). */
export type SavedCardWords = (brand: string, lastFour?: string, expiry?: string) => string

const ENGLISH: SavedCardWords = (brand, lastFour, expiry) =>
  `${brand}${lastFour ? ` ending in ${lastFour}` : ''}${expiry ? `, expires ${expiry}` : ''}`

/** "Visa ending in 1111, expires 03/2030": enough for the shopper to tell the cards apart. */
export function describeSavedCard(card: SavedCardChoice, words: SavedCardWords = ENGLISH): string {
  const known = card.brand ? savedCardBrand(card.brand) : null
  const brand = known ? BRAND_NAMES[known.type] : (card.brand ?? 'Card')
  return words(brand, card.lastFour, card.expiryMonth && card.expiryYear ? `${card.expiryMonth}/${card.expiryYear}` : undefined)
}

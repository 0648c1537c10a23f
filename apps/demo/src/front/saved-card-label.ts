/** A saved card as the shop's API gives it to the pages, and how the pages name it to the shopper. */
import { BRAND_NAMES } from '@card-jwe/card-fields'
import { savedCardBrand } from 'card-jwe'

/** What /api/config?orderId= and the account API show of a saved card: never the holder's name. */
export type SavedCardChoice = { readonly id: string } & Partial<
  Readonly<Record<'brand' | 'lastFour' | 'expiryMonth' | 'expiryYear', string>>
>

/** "Visa ending in 1111, expires 03/2030": enough for the shopper to tell the cards apart. */
export function describeSavedCard(card: SavedCardChoice): string {
  const known = card.brand ? savedCardBrand(card.brand) : null
  const brand = known ? BRAND_NAMES[known.type] : (card.brand ?? 'Card')
  const ending = card.lastFour ? ` ending in ${card.lastFour}` : ''
  const expiry = card.expiryMonth && card.expiryYear ? `, expires ${card.expiryMonth}/${card.expiryYear}` : ''
  return `${brand}${ending}${expiry}`
}

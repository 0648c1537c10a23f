import { CARD_BRANDS, type CardBrand } from './brands.js'

/** The service's short brand names (the widely used checkout APIs' spelling) for card-jwe's own. */
const SERVICE_NAMES: Readonly<Record<string, string>> = {
  amex: 'american-express',
  mc: 'mastercard',
  diners: 'diners-club',
  cup: 'unionpay',
  bcmc: 'bancontact',
}

/**
 * The brand of a saved card from the `brand` its stored payment method carries: the service's names
 * (`amex`, `mc`, `bcmc`...) or card-jwe's (`american-express`). Null for a brand card-jwe does not
 * know, whose code is then judged as three or four digits. Never throws.
 */
export function savedCardBrand(name: string): CardBrand | null {
  const type = typeof name === 'string' ? (SERVICE_NAMES[name] ?? name) : ''
  return CARD_BRANDS.find((brand) => brand.type === type) ?? null
}

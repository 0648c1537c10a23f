import { isDigits, textOf } from './lib/text.js'
import { verdictOf, type FieldVerdict } from './verdict.js'
import type { CardBrand } from './brands.js'

/**
 * Verdict on a security code for the brand the number shows. Without a known brand, three or four
 * digits pass; for a brand whose cards carry no code, only an empty field passes. Never throws.
 */
export function securityCodeVerdict(value: string, brand: CardBrand | null = null): FieldVerdict {
  const code = textOf(value).trim()
  if (brand?.code === null) return verdictOf('securityCode', !code, !code, 'length')
  if (!code) return verdictOf('securityCode', false, true, 'required')
  if (!isDigits(code)) return verdictOf('securityCode', false, false, 'characters')
  const sizes: readonly number[] = brand ? [brand.code!.size] : [3, 4]
  const fits = sizes.includes(code.length)
  return verdictOf('securityCode', fits, fits || code.length < Math.max(...sizes), 'length')
}

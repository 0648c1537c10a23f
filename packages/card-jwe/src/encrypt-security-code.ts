import { CardJweError } from './errors.js'
import type { EncryptionCertificate } from './import-certificate.js'
import { savedCardBrand } from './saved-card-brand.js'
import { securityCodeVerdict } from './security-code-verdict.js'
import { seal } from './lib/seal.js'
import { textOf } from './lib/text.js'
import type { CardBrand } from './brands.js'
import type { Clock } from './lib/clock.js'

/** A saved card's security code as the shopper typed it, and the brand the saved card carries. */
export interface SavedCardCodeInput {
  /** The security code as typed. */
  readonly securityCode: string
  /**
   * The saved card's brand: its `brand` from `storedPaymentMethods` (`amex`, `visa`...), or a
   * brand of {@link CARD_BRANDS}; null when unknown (three or four digits then pass).
   */
  readonly brand: string | CardBrand | null
}

/** Options of {@link encryptSecurityCode}. */
export interface EncryptSecurityCodeOptions {
  /** Clock for `generationtime`; defaults to the real time. Inject one in tests. */
  readonly now?: Clock
}

/**
 * Encrypts a saved card's security code alone into one compact JWE with the card JWE's header,
 * whose payload is only `{cvc, generationtime}`: the payment names the card by its
 * `storedPaymentMethodId`. Throws `ERR_CARD_INVALID` (field `securityCode`) for a code that does not
 * fit the brand, and `ERR_INVALID_ARGUMENT` for a brand whose cards carry no code (pay without a JWE).
 */
export async function encryptSecurityCode(
  input: SavedCardCodeInput,
  certificate: EncryptionCertificate,
  options: EncryptSecurityCodeOptions = {},
): Promise<string> {
  if (typeof input !== 'object' || input === null) throw new CardJweError('ERR_INVALID_ARGUMENT', 'input: expected an object')
  const brand = typeof input.brand === 'string' ? savedCardBrand(input.brand) : input.brand
  if (brand?.code === null) {
    throw new CardJweError('ERR_INVALID_ARGUMENT', 'brand: its cards carry no security code; pay with storedPaymentMethodId alone')
  }
  return seal(certificate, options.now, () => {
    const cvc = textOf(input.securityCode).trim()
    const verdict = securityCodeVerdict(cvc, brand)
    if (!verdict.isValid) {
      const issues = [{ field: 'securityCode', rule: verdict.rule! }] as const
      throw new CardJweError('ERR_CARD_INVALID', `invalid card: securityCode (${verdict.rule})`, { issues })
    }
    return { cvc }
  })
}

import type { ServicePaymentRequest } from '@card-jwe/payment-validator'
import { DecryptionError } from '@card-jwe/testkit/decryptor'
import { TEST_CARDS } from '@card-jwe/testkit/test-cards'
import { expiryVerdict, savedCardBrand } from 'card-jwe'
import { SandboxError, type SandboxErrorCode } from '../errors.js'
import type { SandboxContext, ShopRow } from '../context.js'
import { newId } from '../lib/ids.js'
import type { PaymentRow } from '../payment-store.js'

/** The service's three card messages, as error codes of the envelope. */
export const CARD_ERROR_CODES: Record<DecryptionError['code'], SandboxErrorCode> = {
  UNDECRYPTABLE: 'CARD_DATA_UNDECRYPTABLE',
  NO_LONGER_VALID: 'CARD_DATA_NO_LONGER_VALID',
  INVALID_CARD_DETAILS: 'CARD_DETAILS_INVALID',
}

/** The card's brand, last four and expiry, as a payment row keeps them. */
export interface CardFields {
  readonly card_brand: string
  readonly card_last_four: string
  readonly card_expiry: string
}

/** What the test platform does with a card: its 3-D Secure flow, and the refusal told at the end. */
export interface CardOutcome {
  readonly flow: string
  readonly refusal: string | null
}

/** Whether a card's expiry month has passed at `now`: card-jwe's rule (its month over everywhere), so the page and the issuer agree. */
export function isExpired(month: string, year: string, now: Date): boolean {
  return expiryVerdict({ month, year }, { now: () => now }).rule === 'expired'
}

/**
 * A payment with a saved card, as the widely used checkout API takes it: the card must be an active one of
 * this shopper of this shop; another shopper's, an unknown and a removed id are refused alike,
 * before anything is charged. With the shopper present (`CardOnFile`) a brand with a code needs the
 * code-only JWE and 3-D Secure applies as for a new card; without (`Subscription`,
 * `UnscheduledCardOnFile`, no JWE and no browser data by the schema) there is never an action.
 */
export async function savedCardPayment(
  context: SandboxContext,
  shop: ShopRow,
  body: ServicePaymentRequest,
): Promise<{ cardFields: CardFields; outcome: CardOutcome }> {
  const method = body.paymentMethod as { storedPaymentMethodId: string; jwe?: string }
  // The schema has made shopperReference required with a stored id.
  const saved = context.payments.storedMethodOf(method.storedPaymentMethodId, shop.shop_id, body.shopperReference!)
  if (!saved) {
    throw new SandboxError('STORED_PAYMENT_METHOD_UNKNOWN', 'paymentMethod.storedPaymentMethodId: no saved card of this shopperReference')
  }
  const brand = savedCardBrand(saved.brand)
  const present = body.recurringProcessingModel === 'CardOnFile'
  if (present && brand?.code === null && method.jwe !== undefined) {
    throw new SandboxError('INVALID_REQUEST', 'paymentMethod.jwe: this saved card’s brand has no security code')
  }
  if (present && brand?.code !== null) {
    if (method.jwe === undefined) {
      throw new SandboxError(
        'SECURITY_CODE_REQUIRED',
        'paymentMethod.jwe: required with the shopper present (the saved card’s security code)',
      )
    }
    try {
      await context.decryptor.decryptSecurityCode(method.jwe, brand ? { codeSize: brand.code!.size } : {})
    } catch (error) {
      if (!(error instanceof DecryptionError)) throw error
      throw new SandboxError(CARD_ERROR_CODES[error.code], error.message)
    }
  }
  const cardFields = {
    card_brand: saved.brand,
    card_last_four: saved.last_four,
    card_expiry: `${saved.expiry_month}/${saved.expiry_year}`,
  }
  if (isExpired(saved.expiry_month, saved.expiry_year, context.now()))
    return { cardFields, outcome: { flow: 'none', refusal: 'Expired Card' } }
  const known = TEST_CARDS.find((c) => c.brand === saved.brand && c.number.endsWith(saved.last_four))
  const refused = known?.outcome === 'refused' || (!present && known?.outcomeWithoutShopper === 'refused')
  return {
    cardFields,
    outcome: {
      // Without the shopper nobody could answer a challenge: a charge on file is never authenticated.
      flow: present ? (known?.threeDSecure ?? 'none') : 'none',
      refusal: refused ? (known!.refusalReason ?? 'Refused') : null,
    },
  }
}

/** Stores the card as the shopper's method when the payment asked for it and is authorised. */
export function remember(context: SandboxContext, row: PaymentRow): void {
  if (!row.store_method || !row.shopper_reference || row.status !== 'authorised' || !row.card_expiry) return
  const [month, year] = row.card_expiry.split('/')
  context.payments.insertStoredMethod(
    {
      shop_id: row.shop_id,
      store_id: row.store_id,
      shopper_reference: row.shopper_reference,
      brand: row.card_brand!,
      last_four: row.card_last_four!,
      expiry_month: month!,
      expiry_year: year!,
    },
    newId('pm'),
    context.now().toISOString(),
  )
}

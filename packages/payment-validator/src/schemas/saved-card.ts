import * as z from 'zod'
import { CompactJweSchema } from './compact-jwe.js'
import { stringMatching } from '../lib/string-matching.js'

/**
 * A saved card's id as `storedPaymentMethods` gives it. The spec shows no format; letters, digits,
 * `_` and `-`, up to 64, as the widely used checkout APIs' ids are.
 */
export const StoredPaymentMethodIdSchema = stringMatching(/^[A-Za-z0-9_-]{1,64}$/, '1 to 64 characters of [A-Za-z0-9_-]')

/**
 * Paying with a saved card (not in the spec's table; the widely used checkout API's shape): the
 * card by its id and, with the shopper present, one JWE of its security code alone
 * (`{cvc, generationtime}`, card-jwe's `encryptSecurityCode`). Strict: a raw card field never passes.
 */
export const SavedCardPaymentMethodSchema = z.strictObject({
  /** Cards are "scheme". */
  type: z.literal('scheme'),
  /** The saved card's `id` from `storedPaymentMethods`. */
  storedPaymentMethodId: StoredPaymentMethodIdSchema,
  /** With the shopper present, the code-only JWE; absent for a brand without a code and without the shopper. */
  jwe: CompactJweSchema.optional(),
})
/** The `paymentMethod` of a payment with a saved card. */
export type SavedCardPaymentMethod = z.infer<typeof SavedCardPaymentMethodSchema>

/** Who starts the payment: the shopper at the checkout (`Ecommerce`), or a saved card's later use (`ContAuth`). */
export const SHOPPER_INTERACTIONS = Object.freeze(['Ecommerce', 'ContAuth'] as const)
/** Why a card is kept and used: the shopper pays with it again (`CardOnFile`), or the shop charges it alone. */
export const RECURRING_PROCESSING_MODELS = Object.freeze(['CardOnFile', 'Subscription', 'UnscheduledCardOnFile'] as const)

/** `shopperInteraction` of a payment request. */
export const ShopperInteractionSchema = z.literal(SHOPPER_INTERACTIONS)
/** `recurringProcessingModel` of a payment request. */
export const RecurringProcessingModelSchema = z.literal(RECURRING_PROCESSING_MODELS)

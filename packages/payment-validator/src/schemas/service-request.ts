import { z } from 'zod'
import { PaymentDetailsRequestSchema } from './other-bodies.js'
import { CardJwePaymentMethodSchema, EncryptedFieldsPaymentMethodSchema, OtherPaymentMethodSchema } from './payment-method.js'
import { PaymentRequestSchema } from './payment-request.js'

/**
 * What the service accepts, as opposed to what a shop backend should build (`PaymentRequestSchema`,
 * strict). The spec has the backend forward the front end's `state.data` "as is" (Front-end
 * contract 3), and that holds more than the spec's table: `riskData`, `clientStateDataIndicator`,
 * `origin`, `order`, and `brand` or `checkoutAttemptId` inside `paymentMethod`. So the service is
 * strict where the spec is (the card JWE, amounts, ids, URLs: every field of the table keeps its
 * rule) and passes the rest through. Raw card data is refused wherever it appears.
 */

/** Field names only raw card data uses: never accepted in a request, card method or not. */
export const RAW_CARD_FIELD_NAMES = Object.freeze(['number', 'cardNumber', 'expiryMonth', 'expiryYear', 'expiryDate', 'cvc', 'cvv', 'securityCode'])

function refuseRawCardFields(value: Record<string, unknown>, context: z.RefinementCtx): void {
  for (const name of RAW_CARD_FIELD_NAMES) {
    if (Object.hasOwn(value, name)) context.addIssue({ code: 'custom', path: [name], message: 'raw card data is never accepted' })
  }
}

/** What Drop-in and Components add to a card's `paymentMethod`. */
const frontEndCardFields = {
  brand: z.string().max(64).optional(),
  checkoutAttemptId: z.string().max(256).optional(),
  holderName: z.string().max(255).optional(),
}

export const ServicePaymentMethodSchema = z.union([
  CardJwePaymentMethodSchema.extend(frontEndCardFields).loose().superRefine(refuseRawCardFields),
  EncryptedFieldsPaymentMethodSchema.extend(frontEndCardFields).loose().superRefine(refuseRawCardFields),
  OtherPaymentMethodSchema.superRefine(refuseRawCardFields),
])

/** A payment request as the service takes it: the spec's fields by their rules, `state.data`'s others passed on. */
export const ServicePaymentRequestSchema = PaymentRequestSchema.extend({
  paymentMethod: ServicePaymentMethodSchema,
  riskData: z.looseObject({ clientData: z.string().max(50_000).optional() }).optional(),
  clientStateDataIndicator: z.boolean().optional(),
  origin: z.url({ protocol: /^https?$/ }).max(2000).optional(),
  order: z.looseObject({ pspReference: z.string().min(1).max(64), orderData: z.string().max(50_000) }).optional(),
})
  .loose()
  .superRefine(refuseRawCardFields)
export type ServicePaymentRequest = z.infer<typeof ServicePaymentRequestSchema>

/** A payment-details request as the service takes it: `details` by its rule, the rest of `state.data` passed on. */
export const ServicePaymentDetailsRequestSchema = PaymentDetailsRequestSchema.loose().superRefine(refuseRawCardFields)
export type ServicePaymentDetailsRequest = z.infer<typeof ServicePaymentDetailsRequestSchema>

import * as z from 'zod'
import { PaymentDetailsRequestSchema } from './other-bodies.js'
import {
  CardJwePaymentMethodSchema,
  EncryptedFieldsPaymentMethodSchema,
  OtherPaymentMethodSchema,
  refusePlainEncryptedFields,
} from './payment-method.js'
import { PaymentRequestFieldsSchema } from './payment-request.js'
import { refuseRawCardData, refuseRawCardFields } from './raw-card-fields.js'
import { checkOrderLineRules } from './order-lines.js'
import { checkRecurringRules } from './recurring-rules.js'
import { SavedCardPaymentMethodSchema } from './saved-card.js'

/**
 * What the service accepts, as opposed to what a shop backend should build (`PaymentRequestSchema`,
 * strict). The spec has the backend forward the front end's `state.data` "as is" (Front-end
 * contract 3), and that holds more than the spec's table: `riskData`, `clientStateDataIndicator`,
 * `origin`, `order`, and `brand` or `checkoutAttemptId` inside `paymentMethod`. So the service is
 * strict where the spec is (the card JWE, amounts, ids, URLs: every field of the table keeps its
 * rule) and passes the rest through. Raw card data is refused at the top level and anywhere in `paymentMethod`.
 */

/** What Drop-in and Components add to a card's `paymentMethod`. */
const frontEndCardFields = {
  /** The brand the front end detected. */
  brand: z.string().max(64).optional(),
  /** The front end's attempt id, for the processor's analytics. */
  checkoutAttemptId: z.string().max(256).optional(),
  /** Name on the card, in clear. */
  holderName: z.string().max(255).optional(),
}

/** A `paymentMethod` as the service takes it: a card shape with the front end's extras, or another method. */
// Raw card data is looked for first, on any object: a form's own refusal (a missing `jwe`) must not hide it.
export const ServicePaymentMethodSchema = z
  .looseObject({})
  .superRefine(refuseRawCardData)
  .superRefine(refusePlainEncryptedFields)
  .pipe(
    z.union([
      CardJwePaymentMethodSchema.extend(frontEndCardFields).loose(),
      SavedCardPaymentMethodSchema.extend(frontEndCardFields).loose(),
      EncryptedFieldsPaymentMethodSchema.extend(frontEndCardFields).loose(),
      OtherPaymentMethodSchema,
    ]),
  )

/** A payment request as the service takes it: the spec's fields by their rules, `state.data`'s others passed on. */
export const ServicePaymentRequestSchema = PaymentRequestFieldsSchema.extend({
  /** The encrypted card, or another method, as the front end gave it. */
  paymentMethod: ServicePaymentMethodSchema,
  /** The front end's device data for risk checks. */
  riskData: z
    .looseObject({
      /** Opaque, from the processor's library. */
      clientData: z.string().max(50_000).optional(),
    })
    .optional(),
  /** Set by the front end: `state.data` was passed on as is. */
  clientStateDataIndicator: z.boolean().optional(),
  /** The page's origin, for the processor's 3-D Secure and redirects. */
  origin: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
  /** A partial-payments order the payment belongs to. */
  order: z
    .looseObject({
      /** The order's reference. */
      pspReference: z.string().min(1).max(64),
      /** The order's opaque state. */
      orderData: z.string().max(50_000),
    })
    .optional(),
})
  .loose()
  .superRefine(refuseRawCardFields)
  .superRefine(checkRecurringRules)
  .superRefine(checkOrderLineRules)
/** A payment request as the service takes it. */
export type ServicePaymentRequest = z.infer<typeof ServicePaymentRequestSchema>

/** A payment-details request as the service takes it: `details` by its rule, the rest of `state.data` passed on. */
export const ServicePaymentDetailsRequestSchema = PaymentDetailsRequestSchema.loose().superRefine(refuseRawCardFields)
/** A payment-details request as the service takes it. */
export type ServicePaymentDetailsRequest = z.infer<typeof ServicePaymentDetailsRequestSchema>

import * as z from 'zod'
import { AmountSchema } from './amount.js'
import { BrowserInfoSchema } from './browser-info.js'
import { StepDetailsSchema } from './other-bodies.js'
import { PaymentMethodSchema } from './payment-method.js'
import { stringMatching } from '../lib/string-matching.js'

/** The shop's order id as the page knows it: a positive whole number, or a string of letters, digits, `_` and `-`. */
export const OrderIdSchema = z.union([z.int().min(1), stringMatching(/^[A-Za-z0-9_-]{1,64}$/, '1 to 64 characters of [A-Za-z0-9_-]')])

/**
 * What the shop's own page sends its backend at submit: the order it pays, what the page believes
 * the amount and reference are (to be checked, never used), the encrypted card (or a saved card's
 * id with its code's JWE, `{type: "scheme", storedPaymentMethodId, jwe?}`) and browser data.
 */
export const PaymentSubmissionSchema = z
  .strictObject({
    /** The shop's order id, as the page knows it. */
    orderId: OrderIdSchema,
    /** The reference the page shows; checked against the order. */
    reference: z.string().min(1).max(80),
    /** The amount the page shows; checked against the order, never forwarded. */
    amount: AmountSchema,
    /** The encrypted card, or another method. */
    paymentMethod: PaymentMethodSchema,
    /** From `collectBrowserInfo()`, for 3-D Secure 2. */
    browserInfo: BrowserInfoSchema.optional(),
    /** The shopper asked to keep the card for next time (never with a saved card). */
    storePaymentMethod: z.boolean().optional(),
  })
  .superRefine((submission, context) => {
    if (submission.storePaymentMethod === true && 'storedPaymentMethodId' in submission.paymentMethod) {
      context.addIssue({
        code: 'custom',
        path: ['storePaymentMethod'],
        message: 'not with paymentMethod.storedPaymentMethodId (saved already)',
      })
    }
  })
/** What the shop's page sends its backend at submit. */
export type PaymentSubmission = z.infer<typeof PaymentSubmissionSchema>

/** What the page sends after a redirect or a challenge. */
export const DetailsSubmissionSchema = z.strictObject({
  /** The shop's order id. */
  orderId: OrderIdSchema,
  /** What the challenge or the return from the bank gave (`threeDSResult`, `redirectResult`, ...). */
  details: StepDetailsSchema,
})
/** What the page sends after a redirect or a challenge. */
export type DetailsSubmission = z.infer<typeof DetailsSubmissionSchema>

import { z } from 'zod'
import { AmountSchema } from './amount.js'
import { BrowserInfoSchema } from './browser-info.js'
import { PaymentMethodSchema } from './payment-method.js'

/**
 * What the shop's own page sends its backend at submit: the order it pays, what the page believes
 * the amount and reference are (to be checked, never used), the encrypted card and browser data.
 */
export const PaymentSubmissionSchema = z.strictObject({
  orderId: z.union([z.int().min(1), z.string().regex(/^[A-Za-z0-9_-]{1,64}$/)]),
  reference: z.string().min(1).max(80),
  amount: AmountSchema,
  paymentMethod: PaymentMethodSchema,
  browserInfo: BrowserInfoSchema.optional(),
  storePaymentMethod: z.boolean().optional(),
})
export type PaymentSubmission = z.infer<typeof PaymentSubmissionSchema>

/** What the page sends after a redirect or a challenge. */
export const DetailsSubmissionSchema = z.strictObject({
  orderId: z.union([z.int().min(1), z.string().regex(/^[A-Za-z0-9_-]{1,64}$/)]),
  details: z.record(z.string().regex(/^[A-Za-z0-9_]{1,64}$/), z.string().max(20_000)),
})
export type DetailsSubmission = z.infer<typeof DetailsSubmissionSchema>

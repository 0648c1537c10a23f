import { z } from 'zod'
import { AmountSchema } from './amount.js'

/**
 * resultCode values seen in the spec (`Authorised`, `RedirectShopper`) and the others the widely
 * used checkout APIs document. Unknown values still parse: resultCode is the service's to extend.
 */
export const KNOWN_RESULT_CODES = Object.freeze([
  'Authorised',
  'Refused',
  'RedirectShopper',
  'IdentifyShopper',
  'ChallengeShopper',
  'Pending',
  'Received',
  'Cancelled',
  'Error',
] as const)

/**
 * `action`: shape not shown in the spec and passed unchanged to the front end, so everything but
 * `type` passes through (`redirect` with url/method/data, `threeDS2` with subtype/token, ...).
 */
export const ActionSchema = z.looseObject({
  type: z.string().min(1),
  paymentMethodType: z.string().optional(),
})

/** The service's payment response (spec: "Payment response"). Loose: the service may add fields. */
export const PaymentResponseSchema = z.looseObject({
  resultCode: z.string().min(1),
  action: ActionSchema.optional(),
  order: z.looseObject({}).optional(),
  donationToken: z.string().optional(),
  pspReference: z.string().min(1).optional(),
  amount: AmountSchema.optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  refusalReason: z.string().optional(),
})
export type PaymentResponse = z.infer<typeof PaymentResponseSchema>

/** What the shop backend returns to the browser (spec: Front-end contract 4): nothing else. */
export const BrowserPaymentResultSchema = z.strictObject({
  resultCode: z.string().min(1),
  action: ActionSchema.optional(),
  order: z.looseObject({}).optional(),
  donationToken: z.string().optional(),
})
export type BrowserPaymentResult = z.infer<typeof BrowserPaymentResultSchema>

/** Picks the four fields the browser may see; `pspReference` and `metadata` stay on the server. */
export function toBrowserPaymentResult(response: PaymentResponse): BrowserPaymentResult {
  const { resultCode, action, order, donationToken } = response
  return BrowserPaymentResultSchema.parse({ resultCode, action, order, donationToken })
}

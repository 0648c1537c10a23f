import * as z from 'zod'

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
  /** "threeDS2" (a 3-D Secure 2 fingerprint or challenge) or "redirect" (a bank page); what the page must do next. */
  type: z.string().min(1),
  /** The payment method the action belongs to ("scheme", "ideal"). */
  paymentMethodType: z.string().optional(),
})

/**
 * The service's payment response (spec: "Payment response"). Loose: the service may add fields;
 * an `Authorised` one names its `pspReference`.
 */
export const PaymentResponseSchema = z
  .looseObject({
    /** Where the payment stands: one of {@link KNOWN_RESULT_CODES}, or a newer one. */
    resultCode: z.string().min(1),
    /** What the page must do next, with `RedirectShopper`, `IdentifyShopper` or `ChallengeShopper`. */
    action: ActionSchema.optional(),
    /** A partial-payments order, passed to the page. */
    order: z.looseObject({}).optional(),
    /** For a donation after the payment, passed to the page. */
    donationToken: z.string().optional(),
    /** The payment's reference: keep it with the order, never send it to the page. */
    pspReference: z.string().min(1).optional(),
    /**
     * The amount as the service took it; read, never relied on (the order's amount is the ledger's), so
     * an extra field or a currency outside this package's table does not turn a taken payment into INVALID_RESPONSE.
     */
    amount: z
      .looseObject({
        /** The currency as the service names it. */
        currency: z.string().min(1),
        /** Minor units. */
        value: z.number(),
      })
      .optional(),
    /** The shop's metadata, echoed. */
    metadata: z.record(z.string(), z.unknown()).optional(),
    /** Why a payment was refused; for the shop's logs, not the shopper. */
    refusalReason: z.string().optional(),
  })
  // The spec: an authorised payment's answer carries its pspReference; without it nothing could capture or refund it.
  .refine((answer) => answer.resultCode !== 'Authorised' || answer.pspReference !== undefined, {
    path: ['pspReference'],
    message: 'required with resultCode Authorised',
  })
/** The service's payment response. */
export type PaymentResponse = z.infer<typeof PaymentResponseSchema>

/** What the shop backend returns to the browser (spec: Front-end contract 4): nothing else. */
export const BrowserPaymentResultSchema = z.strictObject({
  /** Where the payment stands. */
  resultCode: z.string().min(1),
  /** What the page must do next. */
  action: ActionSchema.optional(),
  /** A partial-payments order. */
  order: z.looseObject({}).optional(),
  /** For a donation after the payment. */
  donationToken: z.string().optional(),
})
/** What the shop backend returns to the browser. */
export type BrowserPaymentResult = z.infer<typeof BrowserPaymentResultSchema>

/** Picks the four fields the browser may see; `pspReference` and `metadata` stay on the server. */
export function toBrowserPaymentResult(response: PaymentResponse): BrowserPaymentResult {
  const { resultCode, action, order, donationToken } = response
  return BrowserPaymentResultSchema.parse({ resultCode, action, order, donationToken })
}

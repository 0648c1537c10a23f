import * as z from 'zod'
import { AmountSchema } from './amount.js'
import { MetadataSchema } from './payment-request.js'
import { stringMatching } from '../lib/string-matching.js'
import { StoredPaymentMethodIdSchema } from './saved-card.js'

/** What a shopper's step gave the page (`threeDSResult`, `redirectResult`, ...): the page's and the request's one rule. */
export const StepDetailsSchema = z
  .record(stringMatching(/^[A-Za-z0-9_]{1,64}$/, '1 to 64 characters of [A-Za-z0-9_]'), z.string().max(20_000))
  .refine((d) => Object.keys(d).length >= 1 && Object.keys(d).length <= 20, { message: '1 to 20 entries' })

/**
 * Payment-details request (spec: "Payment-details request"): what the front end returned after a
 * redirect or a challenge (`redirectResult`, `threeDSResult`, ...), plus the shop's metadata.
 */
export const PaymentDetailsRequestSchema = z.strictObject({
  /** What the page returned, unchanged. */
  details: StepDetailsSchema,
  /** Opaque state from an older integration's action, passed back. */
  paymentData: z.string().max(20_000).optional(),
  /** The shop's identifiers, echoed in updates. */
  metadata: MetadataSchema.optional(),
})
/** A payment-details request. */
export type PaymentDetailsRequest = z.infer<typeof PaymentDetailsRequestSchema>

/** Capture and refund (spec: "Capture and refund request"): full or partial amount. Cancel has no body. */
export const CaptureRequestSchema = z.strictObject({
  /** How much to capture or refund: all or part of the payment. */
  amount: AmountSchema,
})
/**
 * A refund: an amount, as a capture; where the payment sent `lineItems`, also which of them it gives
 * back, each by its `id` with a `quantity`, whose `quantity * amountIncludingTax` must add up to
 * `amount.value` (the widely used checkout API's refund by line, for buy-now-pay-later methods).
 */
export const RefundRequestSchema = CaptureRequestSchema.extend({
  /** The lines refunded, by the `id` the payment sent them under. */
  lineItems: z
    .array(
      z.strictObject({
        /** The line's `id` in the payment request. */
        id: z.string().min(1).max(100),
        /** How many of it are refunded. */
        quantity: z.int().min(1),
      }),
    )
    .min(1)
    .max(1000)
    .optional(),
})
/** The body of a refund. */
export type RefundRequest = z.infer<typeof RefundRequestSchema>
/** The body of a capture or refund. */
export type CaptureRequest = z.infer<typeof CaptureRequestSchema>

/** A shop setting (spec: "Shop setting object"); `service_secret` is empty until registration. */
export const ShopSettingSchema = z.strictObject({
  /** The setting's name (`service_secret`, ...). */
  id: z.string().min(1).max(128),
  /** Its value, as text. */
  value: z.string().max(4096),
})
/** A shop setting. */
export type ShopSetting = z.infer<typeof ShopSettingSchema>

/** GET settings/general answers an array of settings. */
export const ShopSettingsSchema = z.array(ShopSettingSchema).max(1000)

/** POST settings/general/batch takes `{update: [{id, value}, ...]}`. */
export const ShopSettingsBatchSchema = z.strictObject({
  /** The settings to write. */
  update: z.array(ShopSettingSchema).min(1).max(100),
})

/** Onboarding status (spec: "Onboarding status"); values other than `verification-required`: not shown. */
export const OnboardingStatusSchema = z.looseObject({
  /** "verified", "verification-required", ... */
  status: z.string().min(1),
  /** What still blocks payments, and what the merchant can do about each. */
  errors: z
    .array(
      z.looseObject({
        /** What is missing or wrong. */
        problem: z.string(),
        /** What the merchant can do about it. */
        actions: z.array(z.string()),
      }),
    )
    .optional(),
})
/** The onboarding status of the current contractor. */
export type OnboardingStatus = z.infer<typeof OnboardingStatusSchema>

/** Onboarding link (spec: "Onboarding link"): where the merchant is sent. */
export const OnboardingLinkSchema = z.looseObject({
  /** The hosted onboarding page. */
  uri: z.url({ protocol: /^https?$/ }),
})

/**
 * One saved card of a shopper, as the service lists it in `storedPaymentMethods`, with exactly the
 * fields a shop shows: id, brand, last four, expiry and the holder's name; enough to show it, nothing
 * to pay with. Anything else the service adds is dropped on parsing.
 */
export const StoredPaymentMethodSchema = z.object({
  /** The id a payment names it by (`paymentMethod.storedPaymentMethodId`). */
  id: StoredPaymentMethodIdSchema,
  /** The card's brand, in the service's names (`visa`, `mc`, `amex`, `bcmc`...): card-jwe's `savedCardBrand` reads them. */
  brand: z.string().min(1).max(64),
  /** The number's last four digits. */
  lastFour: stringMatching(/^[0-9]{4}$/, 'four digits'),
  /** "01"-"12". */
  expiryMonth: stringMatching(/^(0[1-9]|1[0-2])$/, 'two digits, 01 to 12'),
  /** Four digits. */
  expiryYear: stringMatching(/^[0-9]{4}$/, 'four digits'),
  /** The name on the card, when the shopper gave one. */
  holderName: z.string().max(255).optional(),
})
/** One saved card of a shopper. */
export type StoredPaymentMethod = z.infer<typeof StoredPaymentMethodSchema>

/** The payment-methods response, passed to the front end unchanged (spec: Front-end contract 2). */
export const PaymentMethodsResponseSchema = z.looseObject({
  /** The methods the shopper may pay with. */
  paymentMethods: z
    .array(
      z.looseObject({
        /** "scheme", "ideal", ... */
        type: z.string(),
      }),
    )
    .optional(),
  /** The shopper's stored cards, passed on as the service gives them; `StoredPaymentMethodSchema` reads one. */
  storedPaymentMethods: z.array(z.looseObject({})).optional(),
})
/** The payment-methods response. */
export type PaymentMethodsResponse = z.infer<typeof PaymentMethodsResponseSchema>

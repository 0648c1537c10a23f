import { z } from 'zod'
import { AmountSchema } from './amount.js'
import { MetadataSchema } from './payment-request.js'

/**
 * Payment-details request (spec: "Payment-details request"): what the front end returned after a
 * redirect or a challenge (`redirectResult`, `threeDSResult`, ...), plus the shop's metadata.
 */
export const PaymentDetailsRequestSchema = z.strictObject({
  details: z
    .record(z.string().regex(/^[A-Za-z0-9_]{1,64}$/), z.string().max(20_000))
    .refine((d) => Object.keys(d).length >= 1 && Object.keys(d).length <= 20, { message: '1 to 20 entries' }),
  paymentData: z.string().max(20_000).optional(),
  metadata: MetadataSchema.optional(),
})
export type PaymentDetailsRequest = z.infer<typeof PaymentDetailsRequestSchema>

/** Capture and refund (spec: "Capture and refund request"): full or partial amount. Cancel has no body. */
export const CaptureRequestSchema = z.strictObject({ amount: AmountSchema })
export const RefundRequestSchema = CaptureRequestSchema
export type CaptureRequest = z.infer<typeof CaptureRequestSchema>

/** A shop setting (spec: "Shop setting object"); `service_secret` is empty until registration. */
export const ShopSettingSchema = z.strictObject({
  id: z.string().min(1).max(128),
  value: z.string().max(4096),
})
export type ShopSetting = z.infer<typeof ShopSettingSchema>

/** GET settings/general answers an array of settings. */
export const ShopSettingsSchema = z.array(ShopSettingSchema).max(1000)

/** POST settings/general/batch takes `{update: [{id, value}, ...]}`. */
export const ShopSettingsBatchSchema = z.strictObject({
  update: z.array(ShopSettingSchema).min(1).max(100),
})

/** Onboarding status (spec: "Onboarding status"); values other than `verification-required`: not shown. */
export const OnboardingStatusSchema = z.looseObject({
  status: z.string().min(1),
  errors: z.array(z.looseObject({ problem: z.string(), actions: z.array(z.string()) })).optional(),
})
export type OnboardingStatus = z.infer<typeof OnboardingStatusSchema>

/** Onboarding link (spec: "Onboarding link"): where the merchant is sent. */
export const OnboardingLinkSchema = z.looseObject({ uri: z.url({ protocol: /^https?$/ }) })

/** The payment-methods response, passed to the front end unchanged (spec: Front-end contract 2). */
export const PaymentMethodsResponseSchema = z.looseObject({
  paymentMethods: z.array(z.looseObject({ type: z.string() })).optional(),
  storedPaymentMethods: z.array(z.looseObject({})).optional(),
})

import { z } from 'zod'

/** Answers of endpoints whose shape the spec does not show; what the sandbox answers (docs/decisions.md). */
/** `storeId` only when a ready-made store was asked for; otherwise stores come from the set-up calls. */
export const RegistrationResultSchema = z.looseObject({ shopId: z.string().min(1), storeId: z.string().min(1).optional(), status: z.string() })
export type RegistrationResult = z.infer<typeof RegistrationResultSchema>

export const ModificationResultSchema = z.looseObject({
  pspReference: z.string().min(1),
  paymentPspReference: z.string().min(1),
  status: z.string(),
  amount: z.object({ currency: z.string(), value: z.int() }).optional(),
})
export type ModificationResult = z.infer<typeof ModificationResultSchema>

const Money = z.object({ currency: z.string(), value: z.int() })

export const UpdatedPaymentSchema = z.looseObject({
  sequence: z.int(),
  pspReference: z.string().min(1),
  status: z.string(),
  amount: Money,
  capturedAmount: Money,
  refundedAmount: Money,
  merchantReference: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()),
  changedAt: z.string(),
})
export const UpdatedPaymentsPageSchema = z.looseObject({ payments: z.array(UpdatedPaymentSchema), cursor: z.int().min(0), hasMore: z.boolean() })
export type UpdatedPaymentsPage = z.infer<typeof UpdatedPaymentsPageSchema>

export const ClientKeySchema = z.looseObject({ clientKey: z.string().min(1) })
export const UnsubscribeResultSchema = z.looseObject({ status: z.string(), storedPaymentMethodId: z.string() })
export const ErasureResultSchema = z.looseObject({ pspReference: z.string(), status: z.string() })

export const EmailVerificationResultSchema = z.looseObject({ email: z.string(), status: z.string(), expiresAt: z.string().optional() })
export const BackofficeUserResultSchema = z.looseObject({ email: z.string(), status: z.string() })
export const ContractorConnectionSchema = z.looseObject({ contractorId: z.string(), status: z.string() })

const StorePaymentMethodStateSchema = z.looseObject({ type: z.string(), enabled: z.boolean() })

/** A store as the service answers store creation and listing (fields beyond the id: not shown; the sandbox's). */
export const StoreSchema = z.looseObject({
  id: z.string().min(1),
  contractorId: z.string().optional(),
  label: z.string().optional(),
  shopperStatement: z.string().optional(),
  industryCode: z.string().optional(),
  phone: z.string().optional(),
  currency: z.string().optional(),
  address: z.record(z.string(), z.string()).optional(),
  paymentMethods: z.array(StorePaymentMethodStateSchema).optional(),
})
export type Store = z.infer<typeof StoreSchema>
export const StoreListSchema = z.array(StoreSchema)

export const CountryListSchema = z.array(z.looseObject({ code: z.string(), name: z.string() }))
export type CountryList = z.infer<typeof CountryListSchema>
export const IndustryCodeListSchema = z.array(z.looseObject({ code: z.string(), description: z.string() }))
export type IndustryCodeList = z.infer<typeof IndustryCodeListSchema>

export const StorePaymentMethodsResultSchema = z.looseObject({ storeId: z.string(), paymentMethods: z.array(StorePaymentMethodStateSchema) })

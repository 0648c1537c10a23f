import { z } from 'zod'

/** Answers of endpoints whose shape the spec does not show; what the sandbox answers (docs/decisions.md). */
export const RegistrationResultSchema = z.looseObject({ shopId: z.string().min(1), storeId: z.string().min(1), status: z.string() })
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

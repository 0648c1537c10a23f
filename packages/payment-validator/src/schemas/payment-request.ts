import { z } from 'zod'
import { AmountSchema } from './amount.js'
import { BrowserInfoSchema } from './browser-info.js'
import { PaymentMethodSchema } from './payment-method.js'

/**
 * The shop's own identifiers, echoed by the service (spec: rule 7). Limits as the widely used
 * checkout APIs set them: 20 entries, keys up to 20 characters, values up to 80.
 */
export const MetadataSchema = z
  .record(z.string().min(1).max(20), z.union([z.string().max(80), z.number(), z.boolean()]))
  .refine((m) => Object.keys(m).length <= 20, { message: 'at most 20 entries' })

/** Inner fields not shown by the spec; the widely used checkout APIs' address shape. */
export const AddressSchema = z.strictObject({
  street: z.string().min(1).max(300),
  houseNumberOrName: z.string().max(300),
  postalCode: z.string().max(20),
  city: z.string().min(1).max(300),
  stateOrProvince: z.string().max(300).optional(),
  country: z.string().regex(/^[A-Z]{2}$/),
})

/** Inner fields not shown by the spec; the widely used checkout APIs' line-item shape (amounts in minor units). */
export const LineItemSchema = z.strictObject({
  id: z.string().max(100).optional(),
  description: z.string().max(10_000).optional(),
  quantity: z.int().min(1),
  amountIncludingTax: z.int().min(0).optional(),
  amountExcludingTax: z.int().min(0).optional(),
  taxAmount: z.int().min(0).optional(),
  taxPercentage: z.int().min(0).max(10_000).optional(),
})

/**
 * The payment request the shop backend sends (spec: "Payment request (create)"). Strict: the
 * backend builds it, so an unknown field is a bug, not data. `shopperIP` is not in the spec's
 * table; it is where the widely used checkout APIs take the shopper's address for 3-D Secure.
 */
export const PaymentRequestSchema = z.strictObject({
  channel: z.enum(['web', 'iOS', 'Android']),
  returnUrl: z.url({ protocol: /^https?$/ }).max(8000),
  amount: AmountSchema,
  paymentMethod: PaymentMethodSchema,
  metadata: MetadataSchema.optional(),
  shopperReference: z.string().min(3).max(256).optional(),
  shopperEmail: z.email().max(500).optional(),
  billingAddress: AddressSchema.optional(),
  lineItems: z.array(LineItemSchema).max(1000).optional(),
  browserInfo: BrowserInfoSchema.optional(),
  storePaymentMethod: z.boolean().optional(),
  merchantAccount: z.string().min(1).max(256).optional(),
  reference: z.string().min(1).max(80).optional(),
  shopperIP: z.union([z.ipv4(), z.ipv6()]).optional(),
})
export type PaymentRequest = z.infer<typeof PaymentRequestSchema>

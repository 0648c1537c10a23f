import * as z from 'zod'
import { AmountSchema } from './amount.js'
import { BrowserInfoSchema } from './browser-info.js'
import { PaymentMethodSchema } from './payment-method.js'
import { isIsoCountryCode } from '../countries.js'
import { checkOrderLineRules } from './order-lines.js'
import { checkRecurringRules } from './recurring-rules.js'
import { RecurringProcessingModelSchema, ShopperInteractionSchema } from './saved-card.js'

/**
 * The shop's own identifiers, echoed by the service (spec: rule 7). Limits as the widely used
 * checkout APIs set them: 20 entries, keys up to 20 characters, values up to 80.
 */
export const MetadataSchema = z
  .record(z.string().min(1).max(20), z.union([z.string().max(80), z.number(), z.boolean()]))
  .refine((m) => Object.keys(m).length <= 20, { message: 'at most 20 entries' })

/** Inner fields not shown by the spec; the widely used checkout APIs' address shape. */
export const AddressSchema = z.strictObject({
  /** Street name. */
  street: z.string().min(1).max(300),
  /** House number or name; may be empty. */
  houseNumberOrName: z.string().max(300),
  /** Postal code as the country writes it. */
  postalCode: z.string().max(20),
  /** City. */
  city: z.string().min(1).max(300),
  /** State or province, where the country has them. */
  stateOrProvince: z.string().max(300).optional(),
  /** ISO 3166-1 alpha-2, upper case: an assigned code ("NL"), not "nl", "NLD" or "ZZ". */
  country: z.string().refine(isIsoCountryCode, { message: 'not an ISO 3166-1 alpha-2 code' }),
})

/** Inner fields not shown by the spec; the widely used checkout APIs' line-item shape (amounts in minor units). */
export const LineItemSchema = z
  .strictObject({
    /** The shop's article id. */
    id: z.string().max(100).optional(),
    /** What the shopper bought. */
    description: z.string().max(10_000).optional(),
    /** How many. */
    quantity: z.int().min(1),
    /** Price of one, tax included, minor units. */
    amountIncludingTax: z.int().min(0).optional(),
    /** Price of one, tax excluded, minor units. */
    amountExcludingTax: z.int().min(0).optional(),
    /** Tax on one, minor units. */
    taxAmount: z.int().min(0).optional(),
    /** Tax rate in basis points: 2100 is 21%. */
    taxPercentage: z.int().min(0).max(10_000).optional(),
  })
  .refine(
    (line) =>
      line.amountIncludingTax === undefined ||
      line.amountExcludingTax === undefined ||
      line.taxAmount === undefined ||
      line.amountIncludingTax === line.amountExcludingTax + line.taxAmount,
    { message: 'amountIncludingTax must be amountExcludingTax + taxAmount', path: ['amountIncludingTax'] },
  )

/** The most `captureDelayHours` takes: 30 days, about as long as a card authorisation holds. */
export const MAX_CAPTURE_DELAY_HOURS = 720

/** The fields of a payment request, each by its rule, before the rules between them (saved cards). */
export const PaymentRequestFieldsSchema = z.strictObject({
  /** Where the shopper pays: "web" for a checkout page. */
  channel: z.literal(['web', 'iOS', 'Android']),
  /** Where the bank sends the shopper back after a redirect. */
  returnUrl: z.url({ protocol: /^https?$/ }).max(8000),
  /** From the shop's order record, never from the page. */
  amount: AmountSchema,
  /** The encrypted card, or another method. */
  paymentMethod: PaymentMethodSchema,
  /** The shop's own identifiers, echoed in updates (`shop_order_id` among them). */
  metadata: MetadataSchema.optional(),
  /** The shop's id for the shopper; needed to store a card. */
  shopperReference: z.string().min(3).max(256).optional(),
  /** The shopper's email address. */
  shopperEmail: z.email().max(500).optional(),
  /** The shopper's billing address. */
  billingAddress: AddressSchema.optional(),
  /** What the order holds; a method of `LINE_ITEM_METHODS` needs them to add up to `amount.value`. */
  lineItems: z.array(LineItemSchema).max(1000).optional(),
  /**
   * When the money is taken: 0 at authorisation, n hours after it; absent, when the shop captures
   * (manual capture). A whole number from 0 to {@link MAX_CAPTURE_DELAY_HOURS}.
   */
  captureDelayHours: z.int().min(0).max(MAX_CAPTURE_DELAY_HOURS).optional(),
  /** The 3-D Secure 2 browser data, completed on the server. */
  browserInfo: BrowserInfoSchema.optional(),
  /** Keep the card for the shopper's next payment. */
  storePaymentMethod: z.boolean().optional(),
  /** The merchant account, when the shop has more than one. */
  merchantAccount: z.string().min(1).max(256).optional(),
  /** The shop's order reference. */
  reference: z.string().min(1).max(80).optional(),
  /** The shopper's IP address, for 3-D Secure. */
  shopperIP: z.union([z.ipv4(), z.ipv6()]).optional(),
  /** `Ecommerce` when the shopper pays (and saves a card), `ContAuth` with a saved card. */
  shopperInteraction: ShopperInteractionSchema.optional(),
  /** `CardOnFile` to save a card or pay with it, the shopper present; `Subscription` or `UnscheduledCardOnFile` without. */
  recurringProcessingModel: RecurringProcessingModelSchema.optional(),
})

/**
 * The payment request the shop backend sends (spec: "Payment request (create)"). Strict: the
 * backend builds it, so an unknown field is a bug, not data. `shopperIP`, `shopperInteraction` and
 * `recurringProcessingModel` are not in the spec's table; they are where the widely used checkout
 * APIs take the shopper's address for 3-D Secure and how a saved card is used; so is `captureDelayHours`.
 */
export const PaymentRequestSchema = PaymentRequestFieldsSchema.superRefine(checkRecurringRules).superRefine(checkOrderLineRules)
/** The payment request a shop backend sends. */
export type PaymentRequest = z.infer<typeof PaymentRequestSchema>

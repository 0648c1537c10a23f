/**
 * Answers of endpoints whose shape the spec does not show: what the sandbox answers. Loose objects,
 * so a field the service adds later does not break a shop.
 */
import * as z from 'zod'

/** An amount in minor units, as the service reports it. */
const MoneySchema = z.object({
  /** ISO 4217 code. */
  currency: z.string(),
  /** Minor units (cents for EUR). */
  value: z.int(),
})

/** The answer to registration; `storeId` only when a ready-made store was asked for. */
export const RegistrationResultSchema = z.looseObject({
  /** The shop's id at the service: the `shopId` of its credentials. */
  shopId: z.string().min(1),
  /** The ready-made store, when one was asked for; otherwise stores come from the set-up calls. */
  storeId: z.string().min(1).optional(),
  /** "registered" once the service has pushed the shop's secret. */
  status: z.string(),
})
/** The answer to registration. */
export type RegistrationResult = z.infer<typeof RegistrationResultSchema>

/** The answer to a capture, refund or cancel: the modification is received, its outcome comes later. */
export const ModificationResultSchema = z.looseObject({
  /** The modification's own reference. */
  pspReference: z.string().min(1),
  /** The payment it modifies. */
  paymentPspReference: z.string().min(1),
  /** "received": the outcome arrives through the updated-payments feed. */
  status: z.string(),
  /** The amount captured or refunded; absent for a cancel. */
  amount: MoneySchema.optional(),
})
/** The answer to a capture, refund or cancel. */
export type ModificationResult = z.infer<typeof ModificationResultSchema>

/**
 * The payment statuses the sandbox reports in the updated-payments feed (the spec shows none):
 * - `identify_shopper`, `challenge_shopper`, `redirect_shopper`: waiting on the shopper (3-D Secure
 *   fingerprint, challenge, or the bank's page); the order is not paid yet.
 * - `authorised`: the money is reserved; ship once captured (or capture now).
 * - `partially_captured`, `captured`: part or all of the amount is taken.
 * - `partially_refunded`, `refunded`: part or all of the captured amount went back.
 * - `cancelled`: the reservation was released; nothing was taken.
 * - `refused`: not paid (declined, failed authentication, or cancelled at the bank); the order may be paid again.
 */
export const KNOWN_PAYMENT_STATUSES = Object.freeze([
  'identify_shopper',
  'challenge_shopper',
  'redirect_shopper',
  'authorised',
  'partially_captured',
  'captured',
  'partially_refunded',
  'refunded',
  'cancelled',
  'refused',
] as const)
/** One of {@link KNOWN_PAYMENT_STATUSES}. */
export type KnownPaymentStatus = (typeof KNOWN_PAYMENT_STATUSES)[number]
/**
 * A payment's status: a known one, or a newer one the service added, which still parses (a shop
 * should keep such an order as it is and log the value).
 */
export type PaymentStatus = KnownPaymentStatus | (string & {})
/** Any string: a status this client does not know yet must not make a whole feed page fail. */
const PaymentStatusSchema: z.ZodType<PaymentStatus> = z.string()

/** One payment in the updated-payments feed, as it stands now. */
export const UpdatedPaymentSchema = z.looseObject({
  /** Position in the feed; pass the page's `cursor` to continue after it. */
  sequence: z.int(),
  /** The payment's reference. */
  pspReference: z.string().min(1),
  /** The payment's state; see {@link KNOWN_PAYMENT_STATUSES}. */
  status: PaymentStatusSchema,
  /** The authorised amount. */
  amount: MoneySchema,
  /** How much of it is captured so far. */
  capturedAmount: MoneySchema,
  /** How much of it is refunded so far. */
  refundedAmount: MoneySchema,
  /** The shop's order reference, as sent with the payment. */
  merchantReference: z.string().optional(),
  /** The shop's metadata, as sent with the payment (its `shop_order_id` among it). */
  metadata: z.record(z.string(), z.unknown()),
  /** When the payment last changed, ISO 8601. */
  changedAt: z.string(),
})
/** One payment in the updated-payments feed. */
export type UpdatedPayment = z.infer<typeof UpdatedPaymentSchema>

/** One page of the updated-payments feed, every record readable (as `updatedPayments()` gives it, less `unreadable`). */
export const UpdatedPaymentsPageSchema = z.looseObject({
  /** Payments changed after the cursor asked for, oldest change first. */
  payments: z.array(UpdatedPaymentSchema),
  /** Where the next call continues (`after`); store it with the shop's state. */
  cursor: z.int().min(0),
  /** More pages wait: call again at once. */
  hasMore: z.boolean(),
})

/**
 * A page as the wire carries it: each record needs only its position, so one record this client
 * cannot read (a field missing, a payment made outside the shop) costs that record, never the page.
 */
export const FeedPageEnvelopeSchema = z.looseObject({
  /** The page's records, each with at least its position. */
  payments: z.array(
    z.looseObject({
      /** Position in the feed. */
      sequence: z.int(),
    }),
  ),
  /** Where the next call continues. */
  cursor: z.int().min(0),
  /** More pages wait. */
  hasMore: z.boolean(),
})

/** A feed record this client could not read as an {@link UpdatedPayment}: its position, the rules it broke, the record as sent. */
export interface UnreadableFeedRecord {
  /** Its position in the feed. */
  readonly sequence: number
  /** Where and which rule, never a value: `{ path: "amount.value", rule: "invalid_type" }`. */
  readonly issues: ReadonlyArray<{
    /** Where in the record, dotted: `amount.value`. */
    readonly path: string
    /** Which rule (zod's issue code): `invalid_type`, `too_small`... */
    readonly rule: string
  }>
  /** The record as the service sent it (for a problem store; never for a log line). */
  readonly record: Readonly<Record<string, unknown>>
}

/** One page of the updated-payments feed. */
export type UpdatedPaymentsPage = z.infer<typeof UpdatedPaymentsPageSchema> & {
  /** Records of the page that do not read as a payment, in feed order; `payments` holds the rest. */
  readonly unreadable: readonly UnreadableFeedRecord[]
}

/** Splits a page's records into those that read as payments and those that do not (each judged alone). */
export function readFeedPage(page: z.infer<typeof FeedPageEnvelopeSchema>): UpdatedPaymentsPage {
  const payments: UpdatedPayment[] = []
  const unreadable: UnreadableFeedRecord[] = []
  for (const record of page.payments) {
    const read = UpdatedPaymentSchema.safeParse(record)
    if (read.success) payments.push(read.data)
    else {
      const issues = read.error.issues.map((issue) => ({ path: issue.path.join('.'), rule: issue.code }))
      unreadable.push({ sequence: record.sequence, issues, record })
    }
  }
  return { ...page, payments, unreadable }
}

/** The answer carrying a client key (a store's, or the web component's). */
export const ClientKeySchema = z.looseObject({
  /** The public key a page's component uses. */
  clientKey: z.string().min(1),
})

/** The answer to removing a stored card. */
export const UnsubscribeResultSchema = z.looseObject({
  /** "disabled": the stored card can no longer be used. */
  status: z.string(),
  /** The stored payment method that was removed. */
  storedPaymentMethodId: z.string(),
})
/** The answer to removing a stored card. */
export type UnsubscribeResult = z.infer<typeof UnsubscribeResultSchema>

/** The answer to a shopper's erasure request. */
export const ErasureResultSchema = z.looseObject({
  /** The payment whose shopper data is erased. */
  pspReference: z.string(),
  /** "received". */
  status: z.string(),
})
/** The answer to a shopper's erasure request. */
export type ErasureResult = z.infer<typeof ErasureResultSchema>

/** The answer to sending the merchant's verification email. */
export const EmailVerificationResultSchema = z.looseObject({
  /** The address the code went to. */
  email: z.string(),
  /** "sent". */
  status: z.string(),
  /** When the code stops working, ISO 8601. */
  expiresAt: z.string().optional(),
})
/** The answer to sending the merchant's verification email. */
export type EmailVerificationResult = z.infer<typeof EmailVerificationResultSchema>

/** The answer to connecting the merchant's back-office user. */
export const BackofficeUserResultSchema = z.looseObject({
  /** The verified address. */
  email: z.string(),
  /** "connected". */
  status: z.string(),
})
/** The answer to connecting the merchant's back-office user. */
export type BackofficeUserResult = z.infer<typeof BackofficeUserResultSchema>

/** The answer to choosing the contractor the following calls act for. */
export const ContractorConnectionSchema = z.looseObject({
  /** The contractor now current. */
  contractorId: z.string(),
  /** "connected". */
  status: z.string(),
})
/** The answer to choosing the contractor. */
export type ContractorConnection = z.infer<typeof ContractorConnectionSchema>

/** Whether a store offers one payment method. */
const StorePaymentMethodStateSchema = z.looseObject({
  /** "scheme" (cards) or "ideal". */
  type: z.string(),
  /** Offered at checkout. */
  enabled: z.boolean(),
})

/** A store as the service answers store creation and listing (fields beyond the id: not shown; the sandbox's). */
export const StoreSchema = z.looseObject({
  /** The store's id: the `storeId` of payment calls. */
  id: z.string().min(1),
  /** The contractor the store belongs to. */
  contractorId: z.string().optional(),
  /** The store's name in the merchant's back office. */
  label: z.string().optional(),
  /** What the shopper's statement shows. */
  shopperStatement: z.string().optional(),
  /** The store's industry code (from `industryCodes()`). */
  industryCode: z.string().optional(),
  /** The store's phone number. */
  phone: z.string().optional(),
  /** The one currency the store takes. */
  currency: z.string().optional(),
  /** The store's address fields. */
  address: z.record(z.string(), z.string()).optional(),
  /** The payment methods and whether each is on. */
  paymentMethods: z.array(StorePaymentMethodStateSchema).optional(),
})
/** A store. */
export type Store = z.infer<typeof StoreSchema>
/** The answer to listing stores. */
export const StoreListSchema = z.array(StoreSchema)

/** The countries a store may be in. */
export const CountryListSchema = z.array(
  z.looseObject({
    /** ISO 3166-1 alpha-2. */
    code: z.string(),
    /** English name. */
    name: z.string(),
  }),
)
/** The countries a store may be in. */
export type CountryList = z.infer<typeof CountryListSchema>

/** The industry codes a store may have. */
export const IndustryCodeListSchema = z.array(
  z.looseObject({
    /** The code to send with a store. */
    code: z.string(),
    /** What it stands for, in English. */
    description: z.string(),
  }),
)
/** The industry codes a store may have. */
export type IndustryCodeList = z.infer<typeof IndustryCodeListSchema>

/** The answer to turning a store's payment methods on or off. */
export const StorePaymentMethodsResultSchema = z.looseObject({
  /** The store changed. */
  storeId: z.string(),
  /** Every payment method of the store and whether it is on now. */
  paymentMethods: z.array(StorePaymentMethodStateSchema),
})
/** The answer to turning a store's payment methods on or off. */
export type StorePaymentMethodsResult = z.infer<typeof StorePaymentMethodsResultSchema>

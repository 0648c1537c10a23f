import { z } from 'zod'
import { CurrencyCodeSchema } from './amount.js'

/**
 * Bodies of the merchant set-up calls (spec: "What the service does" rule 4, "Endpoints" rules 3
 * and 4, "Create-store request body", "Contractor"). Where the spec shows no body or limit, the
 * choice is in docs/decisions.md ("Merchant set-up"). Membership of the countries and industry-codes
 * lists is the service's to check: it owns the lists.
 */

const text = (max: number) => z.string().trim().min(1).max(max)
/** Fields the spec says "may be an empty string": present, possibly empty. */
const optionalText = (max: number) => z.string().trim().max(max)

/** A string matching `pattern`; the refusal names the rule in words (issuesOf passes refine messages on). */
const matching = (pattern: RegExp, rule: string) => z.string().refine((s) => pattern.test(s), { message: rule })

/** ISO 3166-1 alpha-2 in capitals; whether the code is on the service's list is checked there. */
export const CountryCodeSchema = matching(/^[A-Z]{2}$/, 'two capital letters (ISO 3166-1 alpha-2)')
/** A merchant category code (ISO 18245): four digits. */
export const IndustryCodeSchema = matching(/^\d{4}$/, 'four digits (a merchant category code)')
/** Contractor ids are UUIDs (spec: "Contractor"). */
export const ContractorIdSchema = z.uuid()

/** `organization` is the spec's value; `individual` is our choice for a person (spec: not shown). */
export const CONTRACTOR_TYPES = ['organization', 'individual'] as const

/**
 * Statement descriptors are short and plain on most card schemes' statements: at most 22
 * characters of letters, digits and `space . , ' _ - ? + * /`, as the widely used checkout APIs allow.
 */
export const SHOPPER_STATEMENT_MAX = 22
export const ShopperStatementSchema = z
  .string()
  .min(1)
  .max(SHOPPER_STATEMENT_MAX)
  .refine((s) => /^[A-Za-z0-9 .,'_\-?+*/]+$/.test(s), { message: "letters, digits and space . , ' _ - ? + * / only" })
  .refine((s) => s.trim() === s, { message: 'no leading or trailing spaces' })

/** International format: `+`, country code and number, 8 to 15 digits (E.164), spaces allowed between. */
export const PhoneNumberSchema = matching(/^\+[1-9](?: ?[0-9]){7,14}$/, 'international format: + and 8 to 15 digits, e.g. +31 20 123 4567')

export const EmailSchema = z.email().max(254)

/** POST /email-verification-messages (body: not shown). */
export const EmailVerificationRequestSchema = z.strictObject({ email: EmailSchema })
export type EmailVerificationRequest = z.infer<typeof EmailVerificationRequestSchema>

/** The one-time code: six digits, as most email verification codes are. */
export const VerificationCodeSchema = matching(/^\d{6}$/, 'six digits')

/** PUT /shopplatform/processor/backoffice-user (body: not shown). */
export const BackofficeUserRequestSchema = z.strictObject({ email: EmailSchema, code: VerificationCodeSchema })
export type BackofficeUserRequest = z.infer<typeof BackofficeUserRequestSchema>

/** A contractor (spec: "Contractor"). Loose: the service may add fields. */
export const ContractorSchema = z.looseObject({
  id: ContractorIdSchema,
  name: z.string(),
  country: z.string(),
  type: z.string(),
})
export type Contractor = z.infer<typeof ContractorSchema>

/** PUT /shopplatform/processor/contractor (spec: `{contractorId}`). */
export const ConnectContractorRequestSchema = z.strictObject({ contractorId: ContractorIdSchema })

export const StoreAddressSchema = z.strictObject({
  country: CountryCodeSchema,
  city: text(100),
  stateOrProvince: optionalText(100),
  line1: text(150),
  line2: optionalText(150),
  line3: optionalText(150),
  postalCode: text(20),
})

/** POST /shopplatform/processor/stores (spec: "Create-store request body"), every field required. */
export const CreateStoreRequestSchema = z.strictObject({
  contractor: z.strictObject({
    type: z.enum(CONTRACTOR_TYPES),
    name: text(200),
    owner: z.strictObject({ firstName: text(80), lastName: text(80) }),
    country: CountryCodeSchema,
  }),
  store: z.strictObject({
    label: text(100),
    shopperStatement: ShopperStatementSchema,
    industryCode: IndustryCodeSchema,
    phone: PhoneNumberSchema,
    currency: CurrencyCodeSchema,
    address: StoreAddressSchema,
  }),
})
export type CreateStoreRequest = z.infer<typeof CreateStoreRequestSchema>

/**
 * Changing a store after creation (our addition; the spec shows no such call). `shopperStatement`
 * is accepted here only so the service can refuse a change with its own error (spec: Limits 3).
 */
export const UpdateStoreRequestSchema = z
  .strictObject({
    label: text(100).optional(),
    phone: PhoneNumberSchema.optional(),
    address: StoreAddressSchema.optional(),
    shopperStatement: ShopperStatementSchema.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'at least one field' })

/** Payment method types a store can offer in the sandbox. */
export const STORE_PAYMENT_METHOD_TYPES = ['scheme', 'ideal'] as const

/** PUT .../stores/{store_id}/payment-methods (body: not shown): each listed method on or off. */
export const StorePaymentMethodsRequestSchema = z.strictObject({
  paymentMethods: z
    .array(z.strictObject({ type: z.enum(STORE_PAYMENT_METHOD_TYPES), enabled: z.boolean() }))
    .min(1)
    .max(STORE_PAYMENT_METHOD_TYPES.length)
    .refine((list) => new Set(list.map((m) => m.type)).size === list.length, { message: 'each type at most once' }),
})
export type StorePaymentMethodsRequest = z.infer<typeof StorePaymentMethodsRequestSchema>

/** POST onboarding-links (body: not shown): nothing, or an empty object. */
export const OnboardingLinkRequestSchema = z.strictObject({})

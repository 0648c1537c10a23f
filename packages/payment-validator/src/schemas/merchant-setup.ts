import * as z from 'zod'
import { CurrencyCodeSchema } from './amount.js'
import { stringMatching } from '../lib/string-matching.js'

/**
 * Bodies of the merchant set-up calls (spec: "What the service does" rule 4, "Endpoints" rules 3
 * and 4, "Create-store request body", "Contractor"). Where the spec shows no body or limit, the
 * limits are ours: those of the widely used checkout APIs. Membership of the countries and industry-codes
 * lists is the service's to check: it owns the lists.
 */

const text = (max: number) => z.string().trim().min(1).max(max)
/** Fields the spec says "may be an empty string": present, possibly empty. */
const optionalText = (max: number) => z.string().trim().max(max)

/** ISO 3166-1 alpha-2 in capitals; whether the code is on the service's list is checked there. */
export const CountryCodeSchema = stringMatching(/^[A-Z]{2}$/, 'two capital letters (ISO 3166-1 alpha-2)')
/** A merchant category code (ISO 18245): four digits. */
export const IndustryCodeSchema = stringMatching(/^\d{4}$/, 'four digits (a merchant category code)')
/** Contractor ids are UUIDs (spec: "Contractor"). */
export const ContractorIdSchema = z.uuid()

/** `organization` is the spec's value; `individual` is our choice for a person (spec: not shown). */
export const CONTRACTOR_TYPES = Object.freeze(['organization', 'individual'] as const)

/**
 * Statement descriptors are short and plain on most card schemes' statements: at most 22
 * characters of letters, digits and `space . , ' _ - ? + * /`, as the widely used checkout APIs allow.
 */
export const SHOPPER_STATEMENT_MAX = 22
/** The text on the shopper's card statement. */
export const ShopperStatementSchema = z
  .string()
  .min(1)
  .max(SHOPPER_STATEMENT_MAX)
  .refine((s) => /^[A-Za-z0-9 .,'_\-?+*/]+$/.test(s), { message: "letters, digits and space . , ' _ - ? + * / only" })
  .refine((s) => s.trim() === s, { message: 'no leading or trailing spaces' })

/** International format: `+`, country code and number, 8 to 15 digits (E.164), spaces allowed between. */
export const PhoneNumberSchema = stringMatching(
  /^\+[1-9](?: ?[0-9]){7,14}$/,
  'international format: + and 8 to 15 digits, e.g. +31 20 123 4567',
)

/** An email address, at most 254 characters (RFC 5321's path limit). */
export const EmailSchema = z.email().max(254)

/** POST /email-verification-messages (body: not shown). */
export const EmailVerificationRequestSchema = z.strictObject({
  /** Where to send the code. */
  email: EmailSchema,
})
/** The body that asks for a verification email. */
export type EmailVerificationRequest = z.infer<typeof EmailVerificationRequestSchema>

/** The one-time code: six digits, as most email verification codes are. */
export const VerificationCodeSchema = stringMatching(/^\d{6}$/, 'six digits')

/** PUT /shopplatform/processor/backoffice-user (body: not shown). */
export const BackofficeUserRequestSchema = z.strictObject({
  /** The address the code was sent to. */
  email: EmailSchema,
  /** The code from the email. */
  code: VerificationCodeSchema,
})
/** The body that connects the back-office user. */
export type BackofficeUserRequest = z.infer<typeof BackofficeUserRequestSchema>

/** A contractor (spec: "Contractor"). Loose: the service may add fields. */
export const ContractorSchema = z.looseObject({
  /** UUID. */
  id: ContractorIdSchema,
  /** The legal entity's name. */
  name: z.string(),
  /** ISO 3166-1 alpha-2. */
  country: z.string(),
  /** "organization" or "individual". */
  type: z.string(),
})
/** A contractor: the legal entity a store belongs to. */
export type Contractor = z.infer<typeof ContractorSchema>

/** PUT /shopplatform/processor/contractor (spec: `{contractorId}`). */
export const ConnectContractorRequestSchema = z.strictObject({
  /** The contractor to make current. */
  contractorId: ContractorIdSchema,
})

/** A store's address (spec: "Create-store request body"). */
export const StoreAddressSchema = z.strictObject({
  /** ISO 3166-1 alpha-2. */
  country: CountryCodeSchema,
  /** City. */
  city: text(100),
  /** State or province; may be empty. */
  stateOrProvince: optionalText(100),
  /** First address line. */
  line1: text(150),
  /** Second address line; may be empty. */
  line2: optionalText(150),
  /** Third address line; may be empty. */
  line3: optionalText(150),
  /** Postal code. */
  postalCode: text(20),
})

/** POST /shopplatform/processor/stores (spec: "Create-store request body"), every field required. */
export const CreateStoreRequestSchema = z.strictObject({
  /** The legal entity the store belongs to. */
  contractor: z.strictObject({
    /** "organization" or "individual". */
    type: z.literal(CONTRACTOR_TYPES),
    /** Its legal name. */
    name: text(200),
    /** The person who owns or represents it. */
    owner: z.strictObject({
      /** Given name. */
      firstName: text(80),
      /** Family name. */
      lastName: text(80),
    }),
    /** Where it is registered, ISO 3166-1 alpha-2. */
    country: CountryCodeSchema,
  }),
  /** The store itself. */
  store: z.strictObject({
    /** Its name in the back office. */
    label: text(100),
    /** What the shopper's statement shows. */
    shopperStatement: ShopperStatementSchema,
    /** Its merchant category code. */
    industryCode: IndustryCodeSchema,
    /** Its phone number, international format. */
    phone: PhoneNumberSchema,
    /** The one currency it takes. */
    currency: CurrencyCodeSchema,
    /** Its address. */
    address: StoreAddressSchema,
  }),
})
/** The body that creates a store. */
export type CreateStoreRequest = z.infer<typeof CreateStoreRequestSchema>

/**
 * Changing a store after creation (our addition; the spec shows no such call). `shopperStatement`
 * is accepted here only so the service can refuse a change with its own error (spec: Limits 3).
 */
export const UpdateStoreRequestSchema = z
  .strictObject({
    /** Its name in the back office. */
    label: text(100).optional(),
    /** Its phone number. */
    phone: PhoneNumberSchema.optional(),
    /** Its address. */
    address: StoreAddressSchema.optional(),
    /** Refused by the service once set (spec: Limits 3). */
    shopperStatement: ShopperStatementSchema.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'at least one field' })
/** The body of a store update: only the fields to change. */
export type UpdateStoreRequest = z.infer<typeof UpdateStoreRequestSchema>

/** Payment method types a store can offer in the sandbox. */
export const STORE_PAYMENT_METHOD_TYPES = Object.freeze(['scheme', 'ideal', 'klarna'] as const)

/** PUT .../stores/{store_id}/payment-methods (body: not shown): each listed method on or off. */
export const StorePaymentMethodsRequestSchema = z.strictObject({
  /** Each method to change, at most once. */
  paymentMethods: z
    .array(
      z.strictObject({
        /** "scheme" (cards), "ideal" or "klarna". */
        type: z.literal(STORE_PAYMENT_METHOD_TYPES),
        /** Offer it at checkout. */
        enabled: z.boolean(),
      }),
    )
    .min(1)
    .max(STORE_PAYMENT_METHOD_TYPES.length)
    .refine((list) => new Set(list.map((m) => m.type)).size === list.length, { message: 'each type at most once' }),
})
/** The body that turns a store's payment methods on or off. */
export type StorePaymentMethodsRequest = z.infer<typeof StorePaymentMethodsRequestSchema>

/** POST onboarding-links (body: not shown): nothing, or an empty object. */
export const OnboardingLinkRequestSchema = z.strictObject({})

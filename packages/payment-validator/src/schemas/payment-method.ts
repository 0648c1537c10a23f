import * as z from 'zod'
import { DEFER_TO_OTHER_FORMS } from '../lib/issues.js'
import { CompactJweSchema } from './compact-jwe.js'
import { refuseRawCardData } from './raw-card-fields.js'
import { SavedCardPaymentMethodSchema } from './saved-card.js'
import { stringMatching } from '../lib/string-matching.js'

export { CompactJweSchema } from './compact-jwe.js'

/** Raw card fields with JWE (spec: Front-end contract 7). Strict: a raw card number never passes. */
export const CardJwePaymentMethodSchema = z.strictObject({
  /** Cards are "scheme". */
  type: z.literal('scheme'),
  /** The card, one compact JWE (RSA-OAEP-256 + A256GCM). */
  jwe: CompactJweSchema,
})

/** Ciphertext is never digits alone: a value that is (a number, a code, an expiry typed into the field) is raw card data. */
const isPlainDigits = (value: unknown): boolean => typeof value === 'number' || (typeof value === 'string' && /^[\d\s./-]+$/.test(value))
const PLAIN_DIGITS_RULE = 'encrypted by the front-end library, never plain digits (raw card data)'

/** One field as the processor's library encrypts it; plain digits are refused by name only. */
const EncryptedFieldSchema = z
  .string()
  .min(1)
  .max(16 * 1024)
  .refine((value) => !isPlainDigits(value), { message: PLAIN_DIGITS_RULE })

/** Card fields encrypted one by one by the processor's front-end library (spec: Payment request, paymentMethod). */
export const EncryptedFieldsPaymentMethodSchema = z.strictObject({
  /** Cards are "scheme". */
  type: z.literal('scheme'),
  /** The number, encrypted by the processor's library. */
  encryptedCardNumber: EncryptedFieldSchema,
  /** The expiry month, encrypted by the processor's library. */
  encryptedExpiryMonth: EncryptedFieldSchema,
  /** The expiry year, encrypted by the processor's library. */
  encryptedExpiryYear: EncryptedFieldSchema,
  /** The security code, encrypted; absent for brands without one. */
  encryptedSecurityCode: EncryptedFieldSchema.optional(),
  /** Name on the card, in clear. */
  holderName: z.string().max(255).optional(),
  /** The brand the library detected. */
  brand: z.string().max(64).optional(),
})

/**
 * Any other method, such as `{type: "ideal"}`: its data is passed through for the service to
 * judge, but `type: "scheme"` (in any letter case) is never accepted here, so card data always takes a card shape above.
 */
export const OtherPaymentMethodSchema = z.looseObject({
  /** The method's type ("ideal", ...); never "scheme". */
  // A method's name, never a card number: a type is stored and shown as the attempt's method.
  type: stringMatching(/^(?!.*\d{4})[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'a letter, then up to 63 of [A-Za-z0-9_.-], never 4 digits in a row')
    // Aborting, and deferring to the card forms: a card with a bad `jwe` is told about its `jwe`, not its type.
    .refine((type) => type.toLowerCase() !== 'scheme', {
      message: 'scheme takes only jwe, storedPaymentMethodId or the encrypted fields, never raw card data',
      abort: true,
      params: { [DEFER_TO_OTHER_FORMS]: true },
    }),
})

/**
 * `encryptedCardNumber` with no expiry field beside it, in a card: a whole card's JWE put in the
 * library's number field, most often. Three forms tie on it with two issues each, so the union's
 * answer lists all three; the field the page used says what it meant.
 */
function refuseLoneCardNumber(value: Record<string, unknown>, context: z.RefinementCtx): void {
  if (value.type !== 'scheme' || !('encryptedCardNumber' in value)) return
  if (['jwe', 'storedPaymentMethodId', 'encryptedExpiryMonth', 'encryptedExpiryYear'].some((name) => name in value)) return
  context.addIssue({
    code: 'custom',
    path: ['encryptedCardNumber'],
    message: "a card's one JWE goes in jwe; encryptedCardNumber comes with encryptedExpiryMonth and encryptedExpiryYear",
  })
}

/**
 * An `encrypted…` field in plain digits under any type (`{type: "ideal", encryptedCardNumber: "4111…"}`):
 * any other method's data is passed through, so without this a typed card number would be sent on.
 */
export function refusePlainEncryptedFields(value: Record<string, unknown>, context: z.RefinementCtx): void {
  for (const [name, field] of Object.entries(value))
    if (/^encrypted/i.test(name) && isPlainDigits(field)) context.addIssue({ code: 'custom', path: [name], message: PLAIN_DIGITS_RULE })
}

/**
 * A card's `jwe` under another type (`card`, `creditcard`): the service would refuse the type, after
 * the back end stored an attempt for it; the page's slip is said here, at the type.
 */
function refuseJweOfAnotherType(value: Record<string, unknown>, context: z.RefinementCtx): void {
  if (!('jwe' in value) || typeof value.type !== 'string' || value.type.toLowerCase() === 'scheme') return
  context.addIssue({ code: 'custom', path: ['type'], message: "scheme: a card's jwe goes with type scheme" })
}

/**
 * The `paymentMethod` of a payment: a card as one JWE, a saved card by its id (with its code's JWE),
 * a card as encrypted fields, or another method.
 * Raw card fields are named first, as such: the forms' own refusals (a `jwe` missing, a key unknown) would hide why.
 */
export const PaymentMethodSchema = z
  .looseObject({})
  .superRefine(refuseRawCardData)
  .superRefine(refuseLoneCardNumber)
  .superRefine(refuseJweOfAnotherType)
  .superRefine(refusePlainEncryptedFields)
  .pipe(z.union([CardJwePaymentMethodSchema, SavedCardPaymentMethodSchema, EncryptedFieldsPaymentMethodSchema, OtherPaymentMethodSchema]))
/** The `paymentMethod` of a payment. */
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>

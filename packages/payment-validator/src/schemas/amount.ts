import * as z from 'zod'
import { ISO_4217_MINOR_UNITS } from '../currencies.js'

/** An ISO 4217 code in use (see currencies.ts); "EURO", "eur" and withdrawn codes are refused. */
export const CurrencyCodeSchema = z
  .string()
  // One rule said, not two: "eur" is told its shape, not also that it is no code in use.
  .refine((code) => /^[A-Z]{3}$/.test(code), { message: 'three capital letters, as EUR', abort: true })
  .refine((code) => Object.hasOwn(ISO_4217_MINOR_UNITS, code), { message: 'not an ISO 4217 code in use' })

/**
 * `{currency, value}` with `value` a whole number of minor units (spec: Endpoints rule 2; 28.00 EUR
 * is 2800). zod's int() also refuses anything beyond 2^53 - 1, where JSON numbers stop being exact.
 */
export const AmountSchema = z.strictObject({
  /** ISO 4217 code, upper case. */
  currency: CurrencyCodeSchema,
  /** Whole minor units: 2800 for 28.00 EUR. */
  value: z.int().min(0),
})
/** An amount in minor units. */
export type Amount = z.infer<typeof AmountSchema>

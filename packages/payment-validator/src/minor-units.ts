import { minorUnitsOf, type MinorUnitOverrides } from './currencies.js'
import { ValidationError } from './errors.js'

function digitsFor(currency: string, overrides: MinorUnitOverrides | undefined): number {
  const digits = minorUnitsOf(currency, overrides)
  if (digits === undefined) throw new ValidationError('ERR_UNKNOWN_CURRENCY', `currency: not an ISO 4217 code in use`)
  return digits
}

/**
 * "28.00" EUR is 2800; "1500" JPY is 1500; "1.234" KWD is 1234. String arithmetic only, so no
 * binary fraction ever rounds an amount. Refuses signs, exponents, separators other than one ".",
 * more decimals than the currency has, and results above Number.MAX_SAFE_INTEGER.
 */
export function toMinorUnits(decimal: string, currency: string, overrides?: MinorUnitOverrides): number {
  const digits = digitsFor(currency, overrides)
  const match = typeof decimal === 'string' ? /^(\d+)(?:\.(\d+))?$/.exec(decimal) : null
  if (!match) throw new ValidationError('ERR_AMOUNT_FORMAT', 'amount: expected a plain decimal such as "28.00"')
  const [, whole, fraction = ''] = match
  if (fraction.length > digits) throw new ValidationError('ERR_AMOUNT_FORMAT', `amount: ${currency} has ${digits} decimal digits`)
  const minor = BigInt(whole! + fraction.padEnd(digits, '0'))
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw new ValidationError('ERR_AMOUNT_FORMAT', 'amount: above 2^53 - 1 minor units')
  return Number(minor)
}

/** 2800 EUR is "28.00"; 1500 JPY is "1500"; 1234 KWD is "1.234". */
export function fromMinorUnits(minor: number, currency: string, overrides?: MinorUnitOverrides): string {
  const digits = digitsFor(currency, overrides)
  if (!Number.isSafeInteger(minor) || minor < 0)
    throw new ValidationError('ERR_AMOUNT_FORMAT', 'amount: expected a whole number of minor units, 0 to 2^53 - 1')
  if (digits === 0) return String(minor)
  const text = String(minor).padStart(digits + 1, '0')
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`
}

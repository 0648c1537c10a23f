import { createRequire } from 'node:module'

/**
 * The lists behind GET countries and GET industry-codes, from maintained public data sets pinned
 * to exact versions in package.json:
 * - countries: ISO 3166-1 alpha-2 with English names, from i18n-iso-countries 7.14.0 (2025-07-17),
 *   which also carries the user-assigned XK (Kosovo) that processors accept;
 * - industry codes: merchant category codes (ISO 18245) with descriptions, from the greggles/mcc-codes
 *   data set as published in the npm package mcc 2.2.0 (2025-10-04).
 */
export const REFERENCE_DATA_SOURCES = Object.freeze({
  countries: 'i18n-iso-countries 7.14.0 (2025-07-17), ISO 3166-1 alpha-2, English names',
  industryCodes: 'greggles/mcc-codes via npm mcc 2.2.0 (2025-10-04), ISO 18245 merchant category codes',
})

export interface Country {
  readonly code: string
  readonly name: string
}

export interface IndustryCode {
  readonly code: string
  readonly description: string
}

const require = createRequire(import.meta.url)

function loadCountries(): readonly Country[] {
  const english = require('i18n-iso-countries/langs/en.json') as { countries: Record<string, string | string[]> }
  // Where a country has several names, the first is the short official one.
  return Object.freeze(
    Object.entries(english.countries)
      .map(([code, names]) => Object.freeze({ code, name: Array.isArray(names) ? names[0]! : names }))
      .sort((a, b) => a.code.localeCompare(b.code)),
  )
}

function loadIndustryCodes(): readonly IndustryCode[] {
  const codes = require('mcc/mcc_codes.json') as Array<{ mcc: string; edited_description: string }>
  return Object.freeze(
    codes.map((c) => Object.freeze({ code: c.mcc, description: c.edited_description })).sort((a, b) => a.code.localeCompare(b.code)),
  )
}

export const COUNTRIES = loadCountries()
export const INDUSTRY_CODES = loadIndustryCodes()

const countryCodes = new Set(COUNTRIES.map((c) => c.code))
const industryCodes = new Set(INDUSTRY_CODES.map((c) => c.code))

export const isListedCountry = (code: string) => countryCodes.has(code)
export const isListedIndustryCode = (code: string) => industryCodes.has(code)

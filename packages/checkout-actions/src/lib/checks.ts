import { CheckoutActionError } from '../errors.js'

/** The refusal of one field, naming the rule. */
export const invalid = (field: string, rule: string) => new CheckoutActionError('ERR_ACTION_INVALID', `${field}: ${rule}`)

/** A non-empty string of at most `max` characters. */
export function text(record: Record<string, unknown>, field: string, where: string, max = 2048): string {
  const value = record[field]
  if (typeof value !== 'string' || value === '') throw invalid(`${where}.${field}`, 'required')
  if (value.length > max) throw invalid(`${where}.${field}`, `at most ${max} characters`)
  return value
}

/** An EMV transaction id: a UUID as EMV 3DS v2.2.0 Table A.1 gives it (36 characters). */
export function transactionId(record: Record<string, unknown>, field: string, where: string): string {
  const value = text(record, field, where, 64)
  if (/[^A-Za-z0-9-]/.test(value)) throw invalid(`${where}.${field}`, 'letters, digits and dashes only')
  return value
}

// Plain http only where nothing travels over a network: a local sandbox or test service.
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/** An absolute https URL (http only on loopback), without credentials. */
export function pageUrl(value: unknown, field: string): URL {
  if (typeof value !== 'string' || value === '') throw invalid(field, 'required')
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw invalid(field, 'an absolute URL')
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname)))
    throw invalid(field, 'https (http only on loopback)')
  if (url.username || url.password) throw invalid(field, 'no credentials in the URL')
  return url
}

import type { Amount } from '@card-jwe/payment-validator'
import type { ServiceCredentials } from '../service-client-types.js'

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

/** A path id, checked: it goes into the path as is. */
export function id(field: 'storeId' | 'pspReference', value: unknown): string {
  if (typeof value !== 'string' || !ID_PATTERN.test(value)) throw new TypeError(`${field}: 1 to 64 characters of [A-Za-z0-9_-]`)
  return value
}

/**
 * An amount as the body carries it, in one key order and nothing else: a retry under the same key
 * must send the same bytes, whatever order the caller's object had (a service may compare the text).
 */
export const amountOf = (amount: Amount): Amount => ({ currency: amount.currency, value: amount.value })

export function query(values: { readonly [key: string]: string | number | undefined }): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(values)) if (value !== undefined) params.set(key, String(value))
  const text = params.toString()
  return text ? `?${text}` : ''
}

export function positive(field: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new TypeError(`${field}: a positive number of milliseconds`)
  return value
}

export function checkCredentials(credentials: ServiceCredentials | undefined): void {
  if (credentials === undefined) return
  // Sent as a header: control characters would make fetch fail in a way that looks like a network error.
  if (typeof credentials.shopId !== 'string' || !/^[\x21-\x7e]{1,128}$/.test(credentials.shopId))
    throw new TypeError('credentials.shopId: 1 to 128 visible ASCII characters')
  if (typeof credentials.serviceSecret !== 'string' || credentials.serviceSecret.length === 0)
    throw new TypeError('credentials.serviceSecret: a non-empty string')
}

export const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export function envelopeOf(text: string): Partial<Record<'errorCode' | 'message' | 'errorType', unknown>> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

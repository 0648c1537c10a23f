import { MAX_CAPTURE_DELAY_HOURS } from '@card-jwe/payment-validator'
import type { ShopBackendOptions } from '../shop-backend-types.js'
import { servedCertificate } from './served-certificate.js'

/** A `paths` or `healthPaths` option: only the known names, each a path of its own from the root. */
function checkPaths(option: string, given: object | undefined, defaults: object): void {
  if (given === undefined) return
  for (const [name, path] of Object.entries(given)) {
    if (!Object.hasOwn(defaults, name))
      throw new TypeError(`${option}.${name}: not a path the back end serves (${Object.keys(defaults).join(', ')})`)
    if (typeof path !== 'string' || !/^\/[^\s?#]*$/.test(path))
      throw new TypeError(`${option}.${name}: a path from the root, as '/api/payments' (no spaces, query or fragment)`)
  }
}

/** 32 bytes, as the secret box takes them, or an AES-GCM key of WebCrypto's. */
function checkKey(option: string, key: unknown): void {
  if (key instanceof Uint8Array ? key.byteLength !== 32 : !(typeof CryptoKey === 'function' && key instanceof CryptoKey))
    throw new TypeError(`${option}: 32 bytes (AES-256) in a Uint8Array, or an AES-GCM CryptoKey`)
}

/** A ledger store, not the promise of one: `openPostgresStore` is async where `openSqliteStore` is not. */
function checkStore(store: unknown): void {
  if (typeof (store as PromiseLike<unknown> | undefined)?.then === 'function')
    throw new TypeError('store: a Promise, not a ledger store: await openPostgresStore(...) before createShopBackend')
  if (typeof (store as { getSetting?: unknown } | undefined)?.getSetting !== 'function')
    throw new TypeError('store: not a ledger store (openSqliteStore, openPostgresStore, or your own LedgerStore)')
}

/**
 * The options a shop can get wrong before any request, each refused at `createShopBackend` by a
 * TypeError that names the option and the rule, never its value: misuse, found at start rather than
 * by the first shopper. Answers the certificate as the page is served it (see served-certificate.ts).
 */
export function checkOptions(options: ShopBackendOptions, defaults: { paths: object; healthPaths: object }): { certificatePem?: string } {
  checkStore(options.store)
  checkPaths('paths', options.paths, defaults.paths)
  checkPaths('healthPaths', options.healthPaths, defaults.healthPaths)
  checkKey('secretKey', options.secretKey)
  for (const [i, key] of (options.previousSecretKeys ?? []).entries()) checkKey(`previousSecretKeys.${i}`, key)
  const delay = options.captureDelayHours
  if (delay !== undefined && (!Number.isInteger(delay) || delay < 0 || delay > MAX_CAPTURE_DELAY_HOURS))
    throw new TypeError(`captureDelayHours: a whole number of hours from 0 to ${MAX_CAPTURE_DELAY_HOURS}`)
  const pem = options.certificatePem
  if (typeof pem !== 'string' || pem.trim() === '') return {}
  const served = servedCertificate(pem)
  if ('problem' in served) throw new TypeError(`certificatePem: ${served.problem}`)
  return { certificatePem: served.pem }
}

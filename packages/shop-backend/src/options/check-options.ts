import { MAX_CAPTURE_DELAY_HOURS } from '@card-jwe/payment-validator'
import type { ShopBackendOptions } from '../shop-backend-types.js'
import { certificatePemProblem } from './certificate-pem-problem.js'

/** A `paths` or `healthPaths` option: only the known names, each a path of its own from the root. */
function checkPaths(option: string, given: object | undefined, defaults: object): void {
  if (given === undefined) return
  for (const [name, path] of Object.entries(given)) {
    if (!(name in defaults)) throw new TypeError(`${option}.${name}: not a path the back end serves (${Object.keys(defaults).join(', ')})`)
    if (typeof path !== 'string' || !/^\/[^\s?#]*$/.test(path))
      throw new TypeError(`${option}.${name}: a path from the root, as '/api/payments' (no spaces, query or fragment)`)
  }
}

/**
 * The options a shop can get wrong before any request, each refused at `createShopBackend` by a
 * TypeError that names the option and the rule, never its value: misuse, found at start rather than
 * by the first shopper.
 */
export function checkOptions(options: ShopBackendOptions, defaults: { paths: object; healthPaths: object }): void {
  const pem = options.certificatePem
  const problem = typeof pem === 'string' && pem.trim() !== '' ? certificatePemProblem(pem) : undefined
  if (problem) throw new TypeError(`certificatePem: ${problem}`)
  checkPaths('paths', options.paths, defaults.paths)
  checkPaths('healthPaths', options.healthPaths, defaults.healthPaths)
  const key = options.secretKey
  if (ArrayBuffer.isView(key) && key.byteLength !== 32) throw new TypeError('secretKey: 32 bytes (AES-256)')
  const delay = options.captureDelayHours
  if (delay !== undefined && (!Number.isInteger(delay) || delay < 0 || delay > MAX_CAPTURE_DELAY_HOURS))
    throw new TypeError(`captureDelayHours: a whole number of hours from 0 to ${MAX_CAPTURE_DELAY_HOURS}`)
}

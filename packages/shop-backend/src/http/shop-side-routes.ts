import { ShopSettingsBatchSchema } from '@card-jwe/payment-validator'
import { SHOP_SIDE_PATHS } from '@card-jwe/service-client/endpoints'
import type { Hono, MiddlewareHandler } from 'hono'
import { ShopBackendError } from '../errors.js'
import { constantTimeEqual } from '../lib/constant-time.js'
import { readSealed, SETTING, writeSettings, type BackendContext } from '../backend-context.js'
import type { FailureThrottle } from '../lib/failure-throttle.js'
import { errorResponse, json } from './answers.js'
import type { BackendEnv } from './backend-env.js'
import { jsonBody, readJsonBody } from './json-body.js'
import { onlyMethod } from './only-method.js'

// The spec's fixed paths ("Shop-side endpoints"), written once in the service client's endpoint table.
export { SHOP_SIDE_PATHS }

/** Settings the service may set through the batch endpoint: the signing secret, nothing else. */
const WRITABLE = new Set([SETTING.serviceSecret])

export interface ShopEndpointOptions {
  readonly throttle: FailureThrottle
  readonly adminUrl: string
  readonly maxBodyBytes: number
  readonly sleep: (ms: number) => Promise<void>
  /** One Basic check at a time per client address (`createKeyedLock`). */
  readonly checkLock: <T>(address: string, run: () => Promise<T>) => Promise<T>
  /** Told when the service pushed a new secret (the signed client is made again). */
  readonly secretChanged: () => void
  /** The merchant is back from onboarding: re-check the status (best effort, never throws). */
  readonly onboardingReturned: () => Promise<void>
}

/** The header with its scheme as `Basic`: the scheme is case-insensitive (RFC 7235 2.1), the credentials are not. */
function basicOf(header: string | null): string {
  const match = /^basic +(.*)$/i.exec((header ?? '').trim())
  return match ? `Basic ${match[1]}` : (header ?? '')
}

async function credentialsMatch(context: BackendContext, authorization: string | null): Promise<boolean> {
  const key = await readSealed(context, SETTING.basicKey)
  const secret = await readSealed(context, SETTING.basicSecret)
  // No pair yet: nothing matches (compared all the same, so the answer takes as long).
  const expected = key && secret ? `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${key}:${secret}`)))}` : '\u0000'
  const same = await constantTimeEqual(basicOf(authorization), expected)
  return same && key !== undefined && secret !== undefined
}

async function visibleSettings(context: BackendContext) {
  // Spec: at least service_secret, an empty string before registration; the service sees nothing else.
  return [{ id: SETTING.serviceSecret, value: (await readSealed(context, SETTING.serviceSecret)) ?? '' }]
}

/** The three shop-side endpoints (spec: "Shop-side endpoints") on `app`. */
export function addShopSideRoutes(app: Hono<BackendEnv>, context: BackendContext, options: ShopEndpointOptions): void {
  // No authentication (spec: "Authentication" 4). The status is re-checked first, so a merchant who
  // finished comes back to an open checkout; without an answer the redirect still happens.
  app
    .get(SHOP_SIDE_PATHS.onboardingReturn, async () => {
      await options.onboardingReturned()
      return new Response(null, { status: 302, headers: { location: options.adminUrl, 'cache-control': 'no-store' } })
    })
    .all(SHOP_SIDE_PATHS.onboardingReturn, onlyMethod('GET'))
  // Credentials before the method: a wrong method tells nothing to a caller without them.
  const basic = shopCredentials(context, options)
  app
    .use(SHOP_SIDE_PATHS.settings, basic)
    .get(SHOP_SIDE_PATHS.settings, async () => json(200, await visibleSettings(context)))
    .all(SHOP_SIDE_PATHS.settings, onlyMethod('GET'))
  app
    .use(SHOP_SIDE_PATHS.settingsBatch, basic)
    .post(SHOP_SIDE_PATHS.settingsBatch, jsonBody(options.maxBodyBytes), async (c) => {
      const body = await readJsonBody(c, ShopSettingsBatchSchema, options.maxBodyBytes)
      const refused = body.update.map((s, i) => ({ id: s.id, index: i })).filter((s) => !WRITABLE.has(s.id as typeof SETTING.serviceSecret))
      // The id is named (a setting's name is not a secret); its value never is.
      if (refused.length > 0) {
        const named = refused.map((s) => `update[${s.index}].id "${s.id.slice(0, 64)}"`).join(', ')
        throw new ShopBackendError('UNKNOWN_SETTING', `update: only service_secret can be set; refused ${named}`)
      }
      // A setting named twice keeps its last value, as when they were written one by one.
      await writeSettings(context, Object.fromEntries(body.update.map((s) => [s.id, s.value])))
      options.secretChanged()
      return json(200, await visibleSettings(context))
    })
    .all(SHOP_SIDE_PATHS.settingsBatch, onlyMethod('POST'))
}

/** Basic authentication with the pair the shop gave at registration, throttled per client address. */
function shopCredentials(context: BackendContext, options: ShopEndpointOptions): MiddlewareHandler<BackendEnv> {
  return async (c, next) => {
    const address = c.env.info.ip ?? 'unknown'
    // One check at a time per address, and a failure holds the next one back for its wait: guesses
    // sent together are checked one wait apart, not all at once with only their 401s slowed.
    const refusal = await options.checkLock(address, async () => {
      if (await credentialsMatch(context, c.req.header('authorization') ?? null)) {
        options.throttle.succeeded(address)
        return undefined
      }
      const delay = options.throttle.failed(address)
      await options.sleep(delay)
      // The same answer whichever half was wrong (spec: "Errors": 401).
      return errorResponse(new ShopBackendError('UNAUTHORIZED', 'credentials not accepted'), {
        'www-authenticate': 'Basic realm="shop settings", charset="UTF-8"',
        'retry-after': String(Math.ceil(delay / 1000)),
      })
    })
    if (refusal) return refusal
    await next()
  }
}

import { createHash } from 'node:crypto'
import { ShopSettingsSchema } from '@card-jwe/payment-validator'
import { SHOP_SIDE_PATHS } from '@card-jwe/service-client'
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '@card-jwe/service-client/idempotency'
import * as z from 'zod'
import { SandboxError } from '../errors.js'
import { validBody } from '../http/parse-body.js'
import { json } from '../http/json.js'
import { newId, newSecret } from '../lib/ids.js'
import { findOrCreateContractor, insertStore, ONBOARDING_CLEAR } from '../merchant-store.js'
import type { SandboxContext } from '../context.js'
import type { RequestContext } from '../http/handler.js'

/** Registration path and body are not in the spec: ours (`REGISTRATION_PATH` of the service client). */
export { REGISTRATION_PATH } from '@card-jwe/service-client'
/**
 * The shop's settings endpoint the sandbox reads at registration (spec: "Shop registration").
 * @deprecated Use `SHOP_SIDE_PATHS.settings` of `@card-jwe/service-client`.
 */
export const SETTINGS_PATH = SHOP_SIDE_PATHS.settings
/**
 * The shop's endpoint the sandbox pushes `service_secret` to.
 * @deprecated Use `SHOP_SIDE_PATHS.settingsBatch` of `@card-jwe/service-client`.
 */
export const SETTINGS_BATCH_PATH = SHOP_SIDE_PATHS.settingsBatch
/** How long the sandbox waits for each of the shop's settings endpoints. */
export const SHOP_CALL_TIMEOUT_MS = 10_000
/** A registration under a key runs at most the shop's two calls; older and unanswered, its process died. */
export const REGISTRATION_RUNS_MS = 2 * SHOP_CALL_TIMEOUT_MS + 5_000

const RegistrationSchema = z.strictObject({
  shopUrl: z.url({ protocol: /^https?$/ }).max(2000),
  // RFC 7617 2: the user-id of HTTP Basic cannot contain a colon, so such a key could never be sent.
  key: z
    .string()
    .min(16)
    .max(256)
    .refine((key) => !key.includes(':'), { message: 'no ":" (HTTP Basic user-id, RFC 7617)' }),
  secret: z.string().min(16).max(256),
  /** Quick start: a verified contractor and an onboarded store come with the registration. */
  readyMadeStore: z.boolean().optional(),
})

async function callShop(url: string, key: string, secret: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, {
      ...init,
      headers: {
        ...init.headers,
        authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`,
        accept: 'application/json',
      },
      signal: AbortSignal.timeout(SHOP_CALL_TIMEOUT_MS),
      redirect: 'error',
    })
  } catch {
    throw new SandboxError('SHOP_UNREACHABLE', `could not reach the shop at ${new URL(url).pathname}`)
  }
}

/**
 * For quick starts and tests: an account, a verified contractor and an onboarded store with the
 * defaults below, as if the merchant had walked the set-up already. Made-up data only.
 */
function createReadyMadeStore(context: SandboxContext, shopId: string): string {
  const accountId = newId('acct')
  context.accounts.insert(accountId, `ready-made+${shopId}@sandbox.test`, context.now().toISOString())
  const contractor = findOrCreateContractor(
    context,
    accountId,
    { type: 'organization', name: 'Ready-made Test Shop B.V.', country: 'NL', owner: { firstName: 'Test', lastName: 'Owner' } },
    ONBOARDING_CLEAR,
  )
  const store = insertStore(context, contractor.contractor_id, {
    label: 'Ready-made store',
    shopperStatement: 'SANDBOX TEA SHOP',
    industryCode: '5499',
    phone: '+31200000000',
    currency: 'EUR',
    address: { country: 'NL', city: 'Amsterdam', stateOrProvince: '', line1: 'Teststraat 1', line2: '', line3: '', postalCode: '1011 AA' },
  })
  context.shops.setAccountAndContractor(shopId, accountId, contractor.contractor_id)
  return store.store_id
}

/** A shop registered without the settings handshake, for test fixtures: what it signs with and sells from. */
export interface ReadyMadeShop {
  /** The shop's id: the `shop_id` of the signature header. */
  readonly shopId: string
  /** The secret the shop signs requests with (what registration would push to the shop). */
  readonly serviceSecret: string
  /** The ready-made store, onboarded: pay with it at once. */
  readonly storeId: string
}

/**
 * For test fixtures: a shop registered directly, with a ready-made store, as if registration had
 * run. `shopUrl` is only where the onboarding page would send the merchant back.
 */
export function seedReadyMadeShop(context: SandboxContext, shopUrl: string): ReadyMadeShop {
  const shop = { shopId: newId('shop'), serviceSecret: newSecret() }
  const storeId = context.db.transaction(() => {
    context.shops.insert(
      {
        shop_id: shop.shopId,
        base_url: shopUrl.replace(/\/+$/, ''),
        basic_key: newId('key'),
        basic_secret: newSecret(),
        service_secret: shop.serviceSecret,
        client_key: `test_${newSecret().slice(0, 32)}`,
      },
      context.now().toISOString(),
    )
    return createReadyMadeStore(context, shop.shopId)
  })()
  context.log(`seeded ${shop.shopId} with ready-made store ${storeId}`)
  return Object.freeze({ ...shop, storeId })
}

interface RegistrationClaim {
  readonly scope: string
  readonly fingerprint: string
  /** The key's one secret: a run again pushes this one, not a new one. */
  readonly serviceSecret: string
}

/**
 * Registration under an `Idempotency-Key` (decisions.md, "Registration path and body"): scoped to
 * the Basic key the shop presents, as there is no shop id yet. The first answer is replayed; a
 * registration still running under the key is 409 `IDEMPOTENCY_KEY_IN_USE`; one that failed runs
 * again on a repeat, with the key's one `service_secret` (a late push of the failed run then writes
 * the same secret). Undefined: this request runs the registration.
 */
function claimRegistration(
  context: SandboxContext,
  c: RequestContext,
  body: { shopUrl: string; key: string; secret: string; readyMadeStore?: boolean | undefined },
): { claim?: RegistrationClaim; replay?: Response } {
  const header = c.req.header(IDEMPOTENCY_KEY_HEADER)
  if (header === undefined) return {}
  if (!IDEMPOTENCY_KEY_PATTERN.test(header))
    throw new SandboxError('IDEMPOTENCY_KEY_INVALID', `${IDEMPOTENCY_KEY_HEADER}: 8 to 64 characters of [A-Za-z0-9_-]`)
  const secretHash = createHash('sha256').update(body.secret).digest('hex')
  const parts = [body.shopUrl.replace(/\/+$/, ''), body.key, secretHash, body.readyMadeStore === true]
  const scope = `${body.key}:${header}`
  const fingerprint = createHash('sha256').update(JSON.stringify(parts)).digest('hex')
  const now = context.now()
  return context.db
    .transaction(() => {
      const row = context.db
        .prepare('SELECT fingerprint, started_at, service_secret, answer FROM registrations WHERE scope = ?')
        .get(scope) as { fingerprint: string; started_at: string; service_secret: string | null; answer: string | null } | undefined
      if (row && row.fingerprint !== fingerprint)
        throw new SandboxError('IDEMPOTENCY_KEY_REUSED', `${IDEMPOTENCY_KEY_HEADER}: already used for a different registration`)
      if (row?.answer) {
        context.log('idempotent replay on registrations')
        return { replay: json(JSON.parse(row.answer), 201) }
      }
      // '' once a run failed: free to run again at once.
      if (row?.started_at && now.getTime() - Date.parse(row.started_at) < REGISTRATION_RUNS_MS)
        throw new SandboxError('IDEMPOTENCY_KEY_IN_USE', 'a registration under this Idempotency-Key is running; try again shortly')
      const claim = { scope, fingerprint, serviceSecret: row?.service_secret ?? newSecret() }
      context.db
        .prepare(`INSERT INTO registrations (scope, fingerprint, started_at, service_secret) VALUES (?, ?, ?, ?)
          ON CONFLICT(scope) DO UPDATE SET started_at = excluded.started_at, service_secret = excluded.service_secret`)
        .run(scope, fingerprint, now.toISOString(), claim.serviceSecret)
      return { claim }
    })
    .immediate()
}

/**
 * Spec, "Shop registration": the sandbox reads the shop's settings with the Basic pair; if the shop
 * accepts, it generates `service_secret`, pushes it with the batch endpoint and registers the shop
 * (with a ready-made store only when asked). A 401 from the shop leaves it unregistered.
 */
export async function register(c: RequestContext, context: SandboxContext): Promise<Response> {
  const { shopUrl, key, secret, readyMadeStore } = validBody(
    c,
    RegistrationSchema,
    'registration (shopUrl http or https; key and secret 16-256 characters, key without ":"; readyMadeStore optional)',
  )
  const { claim, replay } = claimRegistration(context, c, { shopUrl, key, secret, readyMadeStore })
  if (replay) return replay
  try {
    return await registerShop(context, { shopUrl, key, secret, readyMadeStore }, claim)
  } catch (error) {
    // Nothing was registered: a repeat runs it again, with the key's one secret.
    if (claim) context.db.prepare("UPDATE registrations SET started_at = '' WHERE scope = ? AND answer IS NULL").run(claim.scope)
    throw error
  }
}

async function registerShop(
  context: SandboxContext,
  { shopUrl, key, secret, readyMadeStore }: { shopUrl: string; key: string; secret: string; readyMadeStore?: boolean | undefined },
  claim: RegistrationClaim | undefined,
): Promise<Response> {
  const base = shopUrl.replace(/\/+$/, '')

  const read = await callShop(base + SHOP_SIDE_PATHS.settings, key, secret)
  if (read.status === 401)
    throw new SandboxError(
      'SHOP_REJECTED_CREDENTIALS',
      `the shop answered 401 to GET ${SHOP_SIDE_PATHS.settings}: key and secret not accepted; shop not registered`,
    )
  const settings = ShopSettingsSchema.safeParse(read.ok ? await read.json().catch(() => null) : null)
  if (!settings.success || !settings.data.some((s) => s.id === 'service_secret')) {
    throw new SandboxError(
      'SHOP_SETTINGS_INVALID',
      `GET ${SHOP_SIDE_PATHS.settings} must answer 200 with a JSON array of {id, value} including service_secret`,
    )
  }

  const serviceSecret = claim?.serviceSecret ?? newSecret()
  const pushed = await callShop(base + SHOP_SIDE_PATHS.settingsBatch, key, secret, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ update: [{ id: 'service_secret', value: serviceSecret }] }),
  })
  if (pushed.status === 401)
    throw new SandboxError(
      'SHOP_REJECTED_CREDENTIALS',
      `the shop answered 401 to POST ${SHOP_SIDE_PATHS.settingsBatch}; shop not registered`,
    )
  if (!pushed.ok)
    throw new SandboxError('SHOP_SETTINGS_INVALID', `POST ${SHOP_SIDE_PATHS.settingsBatch} answered ${pushed.status}; shop not registered`)

  const shop = { shopId: newId('shop'), clientKey: `test_${newSecret().slice(0, 32)}` }
  const storeId = context.db.transaction(() => {
    context.shops.insert(
      {
        shop_id: shop.shopId,
        base_url: base,
        basic_key: key,
        basic_secret: secret,
        service_secret: serviceSecret,
        client_key: shop.clientKey,
      },
      context.now().toISOString(),
    )
    const made = readyMadeStore ? createReadyMadeStore(context, shop.shopId) : undefined
    const answer = { shopId: shop.shopId, ...(made ? { storeId: made } : {}), status: 'registered' }
    if (claim) context.db.prepare('UPDATE registrations SET answer = ? WHERE scope = ?').run(JSON.stringify(answer), claim.scope)
    return made
  })()
  context.log(`registered ${shop.shopId}${storeId ? ` with ready-made store ${storeId}` : ''}`)
  return json({ shopId: shop.shopId, ...(storeId ? { storeId } : {}), status: 'registered' }, 201)
}

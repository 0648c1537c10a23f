import {
  CreateStoreRequestSchema,
  StorePaymentMethodsRequestSchema,
  UpdateStoreRequestSchema,
  type CreateStoreRequest,
} from '@card-jwe/payment-validator'
import { authenticate } from '../authenticate.js'
import { SandboxError } from '../errors.js'
import { validBody } from '../http/parse-body.js'
import { claimOf, keepAnswer, keptAnswer } from '../idempotency.js'
import { json } from '../http/json.js'
import {
  accountOf,
  compactPhone,
  currentContractor,
  findOrCreateContractor,
  insertStore,
  ONBOARDING_REQUIRED,
  ownedStore,
  paymentMethodsOf,
  storeAnswer,
} from '../merchant-store.js'
import { isListedCountry, isListedIndustryCode } from '../reference-data/lists.js'
import type { SandboxContext } from '../context.js'
import type { RequestContext } from '../http/handler.js'
import { describeEndpoint, ENDPOINTS } from '@card-jwe/service-client'

/** GET /shopplatform/processor/stores: the stores of the *current* contractor (spec: Endpoints rule 3). */
export async function listStores(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  // With several contractors this silently answers for whichever was connected last, as the spec warns.
  const contractor = currentContractor(context, shop)
  const rows = context.merchants.storesOfContractor(contractor.contractor_id)
  return json(rows.map(storeAnswer))
}

/** The lists the service owns; the schema only checks the codes' shape. */
function checkListed(body: CreateStoreRequest): void {
  const unlisted = [
    ['contractor.country', body.contractor.country],
    ['store.address.country', body.store.address.country],
  ].filter(([, code]) => !isListedCountry(code!))
  if (unlisted.length > 0)
    throw new SandboxError(
      'COUNTRY_NOT_LISTED',
      `${unlisted.map(([path]) => path).join(', ')}: not a code from ${describeEndpoint(ENDPOINTS.countries)}`,
    )
  if (!isListedIndustryCode(body.store.industryCode))
    throw new SandboxError('INDUSTRY_CODE_NOT_LISTED', `store.industryCode: not a code from ${describeEndpoint(ENDPOINTS.industryCodes)}`)
}

/**
 * POST /shopplatform/processor/stores with the create-store body: finds the account's contractor with
 * that type, name and country or creates it (onboarding required), creates the store, and makes the
 * contractor current (spec: "Create-store request body").
 */
export async function createStore(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  const account = accountOf(shop)
  const body = validBody(c, CreateStoreRequestSchema, 'create store')
  checkListed(body)
  const claim = claimOf(c, shop, body)
  const kept = keptAnswer(context, claim)
  if (kept) return kept
  return context.db.transaction(() => {
    const contractor = findOrCreateContractor(context, account, body.contractor, ONBOARDING_REQUIRED)
    const row = insertStore(context, contractor.contractor_id, body.store)
    context.shops.setContractor(shop.shop_id, contractor.contractor_id)
    context.log(`store ${row.store_id} created for contractor ${row.contractor_id}`)
    return keepAnswer(context, claim, storeAnswer(row), 201)
  })()
}

/**
 * PATCH /shopplatform/processor/stores/{store_id} (our addition): label, phone and address may change;
 * `shopperStatement` may not (spec: Limits 3), so a different one is refused.
 */
export async function updateStore(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  const store = ownedStore(context, shop, c.req.param('store_id')!)
  const body = validBody(c, UpdateStoreRequestSchema, 'update store')
  if (body.shopperStatement !== undefined && body.shopperStatement !== store.shopper_statement) {
    throw new SandboxError(
      'SHOPPER_STATEMENT_IMMUTABLE',
      'shopperStatement: cannot be changed after the store is created; create a new store for a new statement',
    )
  }
  if (body.address && !isListedCountry(body.address.country))
    throw new SandboxError('COUNTRY_NOT_LISTED', `address.country: not a code from ${describeEndpoint(ENDPOINTS.countries)}`)
  context.merchants.updateStoreDetails(store.store_id, {
    label: body.label ?? store.label,
    phone: body.phone ? compactPhone(body.phone) : store.phone,
    address: body.address ? JSON.stringify(body.address) : store.address,
  })
  return json(storeAnswer(ownedStore(context, shop, store.store_id)))
}

/**
 * PUT .../stores/{store_id}/payment-methods (body not shown): `{paymentMethods: [{type, enabled}]}`.
 * Listed methods change; others keep their state. checkout-payment-methods follows at once.
 */
export async function setStorePaymentMethods(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  const store = ownedStore(context, shop, c.req.param('store_id')!)
  const wanted = validBody(c, StorePaymentMethodsRequestSchema, 'payment methods')
  const next = paymentMethodsOf(store).map((method) => wanted.paymentMethods.find((m) => m.type === method.type) ?? method)
  context.merchants.setStorePaymentMethods(store.store_id, JSON.stringify(next))
  return json({ storeId: store.store_id, paymentMethods: next })
}

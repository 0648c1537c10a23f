import { notFound, SandboxError } from './errors.js'
import { newId } from './lib/ids.js'
import type { SandboxContext, ShopRow } from './context.js'
import { describeEndpoint, ENDPOINTS } from '@card-jwe/service-client'

/** Onboarding status values: the spec shows `verification-required`; the cleared value is ours. */
export const ONBOARDING_REQUIRED = 'verification-required'
export const ONBOARDING_CLEAR = 'verified'

/** Methods a new store offers until PUT payment-methods changes them. */
export const DEFAULT_STORE_PAYMENT_METHODS = Object.freeze([
  { type: 'scheme', enabled: true },
  { type: 'ideal', enabled: true },
])

export interface ContractorRow {
  readonly contractor_id: string
  readonly account_id: string
  readonly type: string
  readonly name: string
  readonly country: string
  readonly owner_first_name: string
  readonly owner_last_name: string
  readonly onboarding_status: string
  readonly created_at: string
}

export interface StoreRow {
  readonly store_id: string
  readonly contractor_id: string
  readonly label: string
  readonly shopper_statement: string
  readonly industry_code: string
  readonly phone: string
  readonly currency: string
  /** JSON of the store address. */
  readonly address: string
  /** JSON array of `{type, enabled}`. */
  readonly payment_methods: string
  readonly created_at: string
}

/** A store with what handlers need to decide: its contractor's onboarding and its methods. */
export interface OwnedStore extends StoreRow {
  readonly onboarding_status: string
}

/**
 * The account's contractor with this type, name and country, created (with `onboarding`) when it
 * does not exist yet (spec: "Create-store request body").
 */
export function findOrCreateContractor(
  context: SandboxContext,
  accountId: string,
  contractor: { type: string; name: string; country: string; owner: { firstName: string; lastName: string } },
  onboarding: string,
): ContractorRow {
  const { type, name, country, owner } = contractor
  context.db
    .prepare(
      'INSERT OR IGNORE INTO contractors (contractor_id, account_id, type, name, country, owner_first_name, owner_last_name, ' +
        'onboarding_status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .run(crypto.randomUUID(), accountId, type, name, country, owner.firstName, owner.lastName, onboarding, context.now().toISOString())
  return context.db
    .prepare('SELECT * FROM contractors WHERE account_id = ? AND type = ? AND name = ? AND country = ?')
    .get(accountId, type, name, country) as ContractorRow
}

/** A new store of a contractor, offering DEFAULT_STORE_PAYMENT_METHODS; the phone is kept without spaces. */
export function insertStore(
  context: SandboxContext,
  contractorId: string,
  store: {
    label: string
    shopperStatement: string
    industryCode: string
    phone: string
    currency: string
    address: Record<string, string>
  },
): StoreRow {
  const row: StoreRow = {
    store_id: newId('store'),
    contractor_id: contractorId,
    label: store.label,
    shopper_statement: store.shopperStatement,
    industry_code: store.industryCode,
    phone: compactPhone(store.phone),
    currency: store.currency,
    address: JSON.stringify(store.address),
    payment_methods: JSON.stringify(DEFAULT_STORE_PAYMENT_METHODS),
    created_at: context.now().toISOString(),
  }
  context.db
    .prepare(
      'INSERT INTO stores (store_id, contractor_id, label, shopper_statement, industry_code, phone, currency, address, ' +
        'payment_methods, created_at) VALUES (@store_id, @contractor_id, @label, @shopper_statement, @industry_code, @phone, ' +
        '@currency, @address, @payment_methods, @created_at)',
    )
    .run(row)
  return row
}

export const compactPhone = (phone: string) => phone.replace(/ /g, '')

/** The merchant account behind the shop, or the refusal that says which step comes first. */
export function accountOf(shop: ShopRow): string {
  if (!shop.account_id) {
    throw new SandboxError(
      422,
      'BACKOFFICE_USER_REQUIRED',
      `no backoffice user is connected: ${describeEndpoint(ENDPOINTS.sendVerificationEmail)}, ` +
        `then ${describeEndpoint(ENDPOINTS.connectBackofficeUser)} with the code`,
      'configuration',
    )
  }
  return shop.account_id
}

/** The current contractor (spec: Endpoints rule 3), or the refusal that says how to set one. */
export function currentContractor(context: SandboxContext, shop: ShopRow): ContractorRow {
  accountOf(shop)
  const row = shop.contractor_id
    ? (context.db.prepare('SELECT * FROM contractors WHERE contractor_id = ?').get(shop.contractor_id) as ContractorRow | undefined)
    : undefined
  if (!row) {
    throw new SandboxError(
      422,
      'CONTRACTOR_NOT_CONNECTED',
      `no contractor is connected: ${describeEndpoint(ENDPOINTS.connectContractor)} ` +
        'with a contractorId from backoffice-user-contractors, or create a store',
      'configuration',
    )
  }
  return row
}

/**
 * A store the shop may use: any store of any contractor of its merchant account. Stores of other
 * accounts are "not found", as are unknown ids, so ids of others cannot be probed.
 */
export function ownedStore(context: SandboxContext, shop: ShopRow, storeId: string): OwnedStore {
  const row = shop.account_id
    ? (context.db
        .prepare(
          'SELECT s.*, c.onboarding_status FROM stores s JOIN contractors c ON c.contractor_id = s.contractor_id ' +
            'WHERE s.store_id = ? AND c.account_id = ?',
        )
        .get(storeId, shop.account_id) as OwnedStore | undefined)
    : undefined
  if (!row) throw notFound('store')
  return row
}

/** Each method the store knows, on or off. */
export function paymentMethodsOf(store: StoreRow): Array<{ type: string; enabled: boolean }> {
  return JSON.parse(store.payment_methods) as Array<{ type: string; enabled: boolean }>
}

export function enabledMethods(store: StoreRow): string[] {
  return paymentMethodsOf(store)
    .filter((m) => m.enabled)
    .map((m) => m.type)
}

/** A store as the service shows it (item fields: not shown in the spec; ours). */
export function storeAnswer(store: StoreRow) {
  return {
    id: store.store_id,
    contractorId: store.contractor_id,
    label: store.label,
    shopperStatement: store.shopper_statement,
    industryCode: store.industry_code,
    phone: store.phone,
    currency: store.currency,
    address: JSON.parse(store.address) as Record<string, string>,
    paymentMethods: paymentMethodsOf(store),
    createdAt: store.created_at,
  }
}

export function contractorAnswer(contractor: ContractorRow) {
  return { id: contractor.contractor_id, name: contractor.name, country: contractor.country, type: contractor.type }
}

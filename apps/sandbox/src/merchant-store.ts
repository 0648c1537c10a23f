import { notFound, SandboxError } from './errors.js'
import { newId } from './lib/ids.js'
import type { SandboxContext, ShopRow } from './context.js'
import type { Db } from './db.js'
import { describeEndpoint, ENDPOINTS } from '@card-jwe/service-client'

/** Onboarding status values: the spec shows `verification-required`; the cleared value is ours. */
export const ONBOARDING_REQUIRED = 'verification-required'
export const ONBOARDING_CLEAR = 'verified'

/** Methods a new store offers until PUT payment-methods changes them. */
export const DEFAULT_STORE_PAYMENT_METHODS = Object.freeze([
  { type: 'scheme', enabled: true },
  { type: 'ideal', enabled: true },
  { type: 'klarna', enabled: true },
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

/** A link to the identity page, for one contractor, spent once. */
export interface OnboardingLinkRow {
  readonly token: string
  readonly shop_id: string
  readonly contractor_id: string
  readonly expires_at: number
  readonly used_at: string | null
}

/** Contractors, their stores and their onboarding links, with their SQL. */
export type MerchantStore = ReturnType<typeof createMerchantStore>

/** Prepares every statement once, when the sandbox starts. */
export function createMerchantStore(db: Db) {
  const insertContractorIfNew = db.prepare(
    `INSERT OR IGNORE INTO contractors (contractor_id, account_id, type, name, country, owner_first_name, owner_last_name,
       onboarding_status, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const contractorByIdentity = db.prepare('SELECT * FROM contractors WHERE account_id = ? AND type = ? AND name = ? AND country = ?')
  const contractorById = db.prepare('SELECT * FROM contractors WHERE contractor_id = ?')
  const contractorOfAccount = db.prepare('SELECT * FROM contractors WHERE contractor_id = ? AND account_id = ?')
  const contractorsOfAccount = db.prepare('SELECT * FROM contractors WHERE account_id = ? ORDER BY rowid')
  const setOnboardingStatus = db.prepare('UPDATE contractors SET onboarding_status = ? WHERE contractor_id = ?')
  const insertStore = db.prepare(
    `INSERT INTO stores (store_id, contractor_id, label, shopper_statement, industry_code, phone, currency, address,
       payment_methods, created_at)
     VALUES (@store_id, @contractor_id, @label, @shopper_statement, @industry_code, @phone, @currency, @address,
       @payment_methods, @created_at)`,
  )
  const storeOfAccount = db.prepare(
    `SELECT s.*, c.onboarding_status FROM stores s JOIN contractors c ON c.contractor_id = s.contractor_id
     WHERE s.store_id = ? AND c.account_id = ?`,
  )
  const storesOfContractor = db.prepare('SELECT * FROM stores WHERE contractor_id = ? ORDER BY rowid')
  const updateStoreDetails = db.prepare('UPDATE stores SET label = ?, phone = ?, address = ? WHERE store_id = ?')
  const setStorePaymentMethods = db.prepare('UPDATE stores SET payment_methods = ? WHERE store_id = ?')
  const insertLink = db.prepare('INSERT INTO onboarding_links (token, shop_id, contractor_id, expires_at) VALUES (?, ?, ?, ?)')
  const linkByToken = db.prepare('SELECT * FROM onboarding_links WHERE token = ?')
  const spendLink = db.prepare('UPDATE onboarding_links SET used_at = ? WHERE token = ?')

  return {
    insertContractorIfNew(row: Omit<ContractorRow, 'created_at'>, createdAt: string): void {
      insertContractorIfNew.run(
        row.contractor_id,
        row.account_id,
        row.type,
        row.name,
        row.country,
        row.owner_first_name,
        row.owner_last_name,
        row.onboarding_status,
        createdAt,
      )
    },
    contractorByIdentity(accountId: string, type: string, name: string, country: string): ContractorRow | undefined {
      return contractorByIdentity.get(accountId, type, name, country) as ContractorRow | undefined
    },
    contractor(contractorId: string): ContractorRow | undefined {
      return contractorById.get(contractorId) as ContractorRow | undefined
    },
    /** The contractor if it belongs to this account. */
    contractorOfAccount(contractorId: string, accountId: string): ContractorRow | undefined {
      return contractorOfAccount.get(contractorId, accountId) as ContractorRow | undefined
    },
    contractorsOfAccount(accountId: string): ContractorRow[] {
      return contractorsOfAccount.all(accountId) as ContractorRow[]
    },
    setOnboardingStatus(contractorId: string, status: string): void {
      setOnboardingStatus.run(status, contractorId)
    },
    insertStore(row: StoreRow): void {
      insertStore.run(row)
    },
    /** The store if it belongs to a contractor of this account, with that contractor's onboarding. */
    storeOfAccount(storeId: string, accountId: string): OwnedStore | undefined {
      return storeOfAccount.get(storeId, accountId) as OwnedStore | undefined
    },
    storesOfContractor(contractorId: string): StoreRow[] {
      return storesOfContractor.all(contractorId) as StoreRow[]
    },
    updateStoreDetails(storeId: string, details: Pick<StoreRow, 'label' | 'phone' | 'address'>): void {
      updateStoreDetails.run(details.label, details.phone, details.address, storeId)
    },
    setStorePaymentMethods(storeId: string, paymentMethods: string): void {
      setStorePaymentMethods.run(paymentMethods, storeId)
    },
    insertOnboardingLink(row: Omit<OnboardingLinkRow, 'used_at'>): void {
      insertLink.run(row.token, row.shop_id, row.contractor_id, row.expires_at)
    },
    onboardingLink(token: string): OnboardingLinkRow | undefined {
      return linkByToken.get(token) as OnboardingLinkRow | undefined
    },
    spendOnboardingLink(token: string, usedAt: string): void {
      spendLink.run(usedAt, token)
    },
  }
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
  context.merchants.insertContractorIfNew(
    {
      contractor_id: crypto.randomUUID(),
      account_id: accountId,
      type,
      name,
      country,
      owner_first_name: owner.firstName,
      owner_last_name: owner.lastName,
      onboarding_status: onboarding,
    },
    context.now().toISOString(),
  )
  return context.merchants.contractorByIdentity(accountId, type, name, country)!
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
  context.merchants.insertStore(row)
  return row
}

export const compactPhone = (phone: string) => phone.replace(/ /g, '')

/** The merchant account behind the shop, or the refusal that says which step comes first. */
export function accountOf(shop: ShopRow): string {
  if (!shop.account_id) {
    throw new SandboxError(
      'BACKOFFICE_USER_REQUIRED',
      `no backoffice user is connected: ${describeEndpoint(ENDPOINTS.sendVerificationEmail)}, ` +
        `then ${describeEndpoint(ENDPOINTS.connectBackofficeUser)} with the code`,
    )
  }
  return shop.account_id
}

/** The current contractor (spec: Endpoints rule 3), or the refusal that says how to set one. */
export function currentContractor(context: SandboxContext, shop: ShopRow): ContractorRow {
  accountOf(shop)
  const row = shop.contractor_id ? context.merchants.contractor(shop.contractor_id) : undefined
  if (!row) {
    throw new SandboxError(
      'CONTRACTOR_NOT_CONNECTED',
      `no contractor is connected: ${describeEndpoint(ENDPOINTS.connectContractor)} ` +
        'with a contractorId from backoffice-user-contractors, or create a store',
    )
  }
  return row
}

/**
 * A store the shop may use: any store of any contractor of its merchant account. Stores of other
 * accounts are "not found", as are unknown ids, so ids of others cannot be probed.
 */
export function ownedStore(context: SandboxContext, shop: ShopRow, storeId: string): OwnedStore {
  const row = shop.account_id ? context.merchants.storeOfAccount(storeId, shop.account_id) : undefined
  if (!row) throw notFound('store')
  return row
}

/** Each method the store knows, on or off. */
/** The store's methods; one it never set (klarna, for a store made before the sandbox had it) as the default has it. */
export function paymentMethodsOf(store: StoreRow): Array<{ type: string; enabled: boolean }> {
  const set = JSON.parse(store.payment_methods) as Array<{ type: string; enabled: boolean }>
  return [...set, ...DEFAULT_STORE_PAYMENT_METHODS.filter((d) => !set.some((m) => m.type === d.type))]
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

import {
  BackofficeUserRequestSchema,
  ConnectContractorRequestSchema,
  CreateStoreRequestSchema,
  EmailVerificationRequestSchema,
  ISO_4217_MINOR_UNITS,
  type CreateStoreRequest,
} from '@card-jwe/payment-validator'
import { ShopBackendError } from '../errors.js'
import type {
  MerchantService,
  OnboardingLink,
  ServiceContractor,
  ServiceCountry,
  ServiceIndustryCode,
  ServiceStore,
  ShopService,
  StorePaymentMethodsAnswer,
} from '../payment-service.js'
import type { LedgerStore } from '../store/ledger-store.js'
import { SETTING } from '../backend-context.js'
import { createKeyedLock } from '../lib/keyed-lock.js'
import type { Log } from '../telemetry/log.js'
import { derivedIdempotencyKey } from '../lib/idempotency-key.js'
import {
  forgottenAccount,
  checked,
  invalid,
  readSetupState,
  sellingStoreOf,
  setupFailure,
  stepMissing,
  type MerchantSetupState,
} from './setup-state.js'

/** The service's reference lists for the store form, and the currencies a store may take. */
export interface SetupLists {
  /** The service's countries list. */
  readonly countries: readonly ServiceCountry[]
  /** The service's industry-codes list. */
  readonly industryCodes: readonly ServiceIndustryCode[]
  /** ISO 4217 codes in use (payment-validator's table). */
  readonly currencies: readonly string[]
}

/**
 * The merchant's set-up as calls a shop's admin makes, in the spec's order ("Endpoints" rules 3
 * and 4): email, code, contractor (or a new store), onboarding link, status re-check. The progress
 * lives in the ledger store's settings. The checkout sells only from the chosen store once its
 * onboarding status is `ONBOARDED_STATUS`. Refusals are {@link ShopBackendError}s: 400
 * `INVALID_INPUT` (field and rule), 409 `SETUP_STEP_MISSING`, 404 `STORE_NOT_FOUND`,
 * `SERVICE_REFUSED` (`details.serviceCode`), 503 `SERVICE_UNREACHABLE`.
 */
export interface MerchantSetup {
  /** The progress as stored; no service call. */
  state(): Promise<MerchantSetupState>
  /** Sends the one-time code; the address is kept for `verifyCode`. */
  sendVerificationEmail(email: string): Promise<MerchantSetupState>
  /** Connects the back-office user. A new account: the earlier contractor and store are forgotten, the checkout closes. */
  verifyCode(code: string): Promise<MerchantSetupState>
  /** The account's contractors; `[]` when it has none (then `createStore`). */
  listContractors(): Promise<ServiceContractor[]>
  /** Makes the contractor current, then lists its stores: store calls come only after it (spec rule 3). */
  chooseContractor(contractorId: string): Promise<ServiceStore[]>
  /** Sells from one of the chosen contractor's stores once it is onboarded; re-checks the status. */
  chooseStore(storeId: string): Promise<MerchantSetupState>
  /** Creates a store (and its contractor when new, which becomes current); checks the onboarding status. */
  createStore(request: CreateStoreRequest): Promise<MerchantSetupState>
  /** Where to send the merchant to finish onboarding; they come back through the onboarding-return endpoint. */
  onboardingLink(): Promise<OnboardingLink>
  /** Reads the onboarding status again and opens or closes the checkout by it. */
  refreshOnboarding(): Promise<MerchantSetupState>
  /** Countries and industry codes (read once per back end) and currencies. */
  lists(): Promise<SetupLists>
  /** Turns cards (`scheme`) and iDEAL on or off for the chosen store. */
  setPaymentMethods(methods: { readonly scheme: boolean; readonly ideal: boolean }): Promise<StorePaymentMethodsAnswer>
}

/** What the set-up needs from the back end. */
export interface MerchantSetupDeps {
  /** The ledger store: the progress lives in its settings. */
  readonly store: LedgerStore
  /** The signed port; no store needed. */
  readonly service: () => Promise<ShopService>
  /** Sets the store the checkout sells from; '' closes it. */
  readonly useStore: (storeId: string) => Promise<void>
  /** Codes and ids only. */
  readonly log: Log
  /** The context's wait: the redirect goes on after this much even without an answer. */
  readonly sleep: (ms: number) => Promise<void>
}

/** How long the onboarding return waits for the re-check before it redirects anyway. */
export const ONBOARDING_RETURN_WAIT_MS = 5_000

const STORE_ID = /^[A-Za-z0-9_-]{1,64}$/

/** The set-up and the onboarding return's re-check (best effort, never throws). */
export function createMerchantSetup(deps: MerchantSetupDeps): {
  readonly setup: MerchantSetup
  onboardingReturned(): Promise<void>
} {
  const { store } = deps
  // One step at a time: a step reads the progress, calls the service and writes the progress.
  const lock = createKeyedLock()
  const serial = <T>(run: () => Promise<T>) => lock('setup', run)
  let lists: Promise<SetupLists> | undefined
  let returning: Promise<unknown> | undefined

  async function ask<K extends keyof MerchantService>(
    name: K,
    ...args: Parameters<MerchantService[K]>
  ): Promise<Awaited<ReturnType<MerchantService[K]>>> {
    const service = await deps.service()
    const call = service[name] as ((...a: unknown[]) => Promise<Awaited<ReturnType<MerchantService[K]>>>) | undefined
    if (typeof call !== 'function')
      throw new TypeError(`service: the factory gave no ${name} (connectServiceClient(...).service has the set-up calls)`)
    return call.apply(service, args).catch(setupFailure)
  }

  /** The checkout follows the progress: the chosen store once onboarded, else closed. */
  async function applyCheckout(): Promise<MerchantSetupState> {
    const state = await readSetupState(store)
    const selling = sellingStoreOf(state)
    if (selling !== ((await store.getSetting(SETTING.storeId)) ?? '')) await deps.useStore(selling)
    return { ...state, checkoutReady: selling !== '' }
  }

  async function requireContractor(): Promise<string> {
    const contractorId = await store.getSetting(SETTING.contractorId)
    if (!contractorId) throw stepMissing('contractor', 'contractorId: choose a contractor or create a store first (spec: Endpoints rule 3)')
    return contractorId
  }

  /**
   * Spec, Endpoints rule 3: the chosen contractor is made current before each contractor call. The
   * service's current one may be another: a choice whose answer was lost, another instance's step.
   */
  async function asChosenContractor(): Promise<string> {
    const contractorId = await requireContractor()
    await ask('connectContractor', contractorId)
    return contractorId
  }

  async function refresh(): Promise<MerchantSetupState> {
    await asChosenContractor()
    const status = await ask('onboardingStatus')
    const problems = (status.errors ?? []).map((e) => ({ problem: e.problem, actions: e.actions }))
    await store.putSettings({ [SETTING.onboardingStatus]: status.status, [SETTING.onboardingErrors]: JSON.stringify(problems) })
    return applyCheckout()
  }

  /** A store of the current contractor becomes the chosen one (`also`: settings written with it); its onboarding decides the checkout. */
  async function choose(storeId: string, contractorId: string, also: Record<string, string> = {}): Promise<MerchantSetupState> {
    await store.putSettings({
      ...also,
      [SETTING.contractorId]: contractorId,
      [SETTING.chosenStoreId]: storeId,
      [SETTING.readyMadeStore]: '',
    })
    return refresh()
  }

  /** The contractor store creation made current, when the answer does not say (spec: its fields are not shown). */
  async function contractorOf(created: ServiceStore, request: CreateStoreRequest): Promise<string> {
    if (created.contractorId) return created.contractorId
    const { type, name, country } = request.contractor
    const found = (await ask('listContractors')).find((c) => c.type === type && c.name === name && c.country === country)
    return found?.id ?? ''
  }

  const setup: MerchantSetup = {
    state: () => readSetupState(store),
    sendVerificationEmail: (email) =>
      serial(async () => {
        const body = checked(EmailVerificationRequestSchema, { email })
        await ask('sendVerificationEmail', body.email)
        await store.putSetting(SETTING.merchantEmail, body.email)
        return readSetupState(store)
      }),
    verifyCode: (code) =>
      serial(async () => {
        const email = await store.getSetting(SETTING.merchantEmail)
        if (!email) throw stepMissing('email', 'email: send a verification code first')
        const body = checked(BackofficeUserRequestSchema, { email, code })
        // One key per code: a repeat after a lost answer gets that answer, not "code already used".
        await ask('connectBackofficeUser', body, { idempotencyKey: derivedIdempotencyKey('backoffice', [email, code]) })
        const sameAccount =
          (await store.getSetting(SETTING.backofficeUser)) === 'connected' && (await store.getSetting(SETTING.connectedEmail)) === email
        // A new account: the earlier contractor, chosen store and status are not this one's.
        await store.putSettings({
          ...(sameAccount ? {} : forgottenAccount()),
          [SETTING.connectedEmail]: email,
          [SETTING.backofficeUser]: 'connected',
        })
        return applyCheckout()
      }),
    listContractors: () => ask('listContractors'),
    chooseContractor: (contractorId) =>
      serial(async () => {
        const body = checked(ConnectContractorRequestSchema, { contractorId })
        await ask('connectContractor', body.contractorId)
        if ((await store.getSetting(SETTING.contractorId)) !== body.contractorId) {
          // Another contractor: the earlier chosen store and status are not this one's.
          await store.putSettings({ ...forgottenAccount(), [SETTING.contractorId]: body.contractorId })
          await applyCheckout()
        }
        return ask('listStores')
      }),
    chooseStore: (storeId) =>
      serial(async () => {
        if (typeof storeId !== 'string' || !STORE_ID.test(storeId)) invalid([{ path: 'storeId', rule: '1 to 64 of [A-Za-z0-9_-]' }])
        const contractorId = await asChosenContractor()
        const found = (await ask('listStores')).find((candidate) => candidate.id === storeId)
        if (!found) throw new ShopBackendError('STORE_NOT_FOUND', 'storeId: not a store of the chosen contractor')
        return choose(found.id, found.contractorId ?? contractorId)
      }),
    createStore: (request) =>
      serial(async () => {
        const body = checked(CreateStoreRequestSchema, request)
        // One key per account and store: a repeat after a lost answer finds the store the first call made.
        const account = (await store.getSetting(SETTING.connectedEmail)) ?? ''
        const created = await ask('createStore', body, { idempotencyKey: derivedIdempotencyKey('store', [account, body]) })
        return choose(created.id, await contractorOf(created, body), { [SETTING.onboardingStatus]: '' })
      }),
    onboardingLink: async () => {
      await asChosenContractor()
      const link = await ask('createOnboardingLink')
      return { uri: link.uri }
    },
    refreshOnboarding: () => serial(refresh),
    lists() {
      lists ??= Promise.all([ask('countries'), ask('industryCodes')]).then(([countries, industryCodes]) => ({
        countries,
        industryCodes,
        currencies: Object.keys(ISO_4217_MINOR_UNITS),
      }))
      // Kept once read; a failed read is tried again next time.
      lists.catch(() => (lists = undefined))
      return lists
    },
    async setPaymentMethods(methods) {
      const wrong = (['scheme', 'ideal'] as const).filter((type) => typeof (methods as Record<string, unknown>)?.[type] !== 'boolean')
      if (wrong.length > 0) invalid(wrong.map((path) => ({ path, rule: 'type:boolean' })))
      const storeId = (await readSetupState(store)).storeId
      if (!storeId) throw stepMissing('store', 'storeId: choose or create a store first')
      return ask('setStorePaymentMethods', storeId, {
        paymentMethods: [
          { type: 'scheme', enabled: methods.scheme },
          { type: 'ideal', enabled: methods.ideal },
        ],
      })
    },
  }
  return {
    setup,
    async onboardingReturned() {
      // Anyone can open the return URL: one re-check at a time, and none before a contractor is current.
      returning ??= serial(async () => {
        if (await store.getSetting(SETTING.contractorId)) await refresh()
      })
        .catch((error) => {
          const code = String((error as { code?: string })?.code ?? 'Error')
          deps.log(`onboarding return: status not re-checked (${code})`, 'warn', { component: 'merchant-setup', code })
        })
        .finally(() => (returning = undefined))
      await Promise.race([returning, deps.sleep(ONBOARDING_RETURN_WAIT_MS)])
    },
  }
}

import { describeIssues, issuesOf, MISSING_AS_REQUIRED, type ValidationIssue } from '@card-jwe/payment-validator'
import type { z } from 'zod'
import { ShopBackendError } from '../errors.js'
import { type OnboardingProblem, PaymentServiceError } from '../payment-service.js'
import type { LedgerStore } from '../store/ledger-store.js'
import { SETTING } from '../backend-context.js'

/**
 * The onboarding status that opens the checkout. The spec shows only `verification-required`, not
 * the value once cleared: we chose `verified`, as the sandbox answers (one constant, here).
 */
export const ONBOARDED_STATUS = 'verified'

/** The merchant set-up's progress, as kept in the ledger store's settings. */
export interface MerchantSetupState {
  /** Where the last verification code went. */
  readonly email: string | null
  /** A code was verified: the back-office user is connected. */
  readonly backofficeUser: boolean
  /** The current contractor (spec rule 3): chosen, or made current by store creation. */
  readonly contractorId: string | null
  /** The store the merchant chose or created, onboarded or not. */
  readonly storeId: string | null
  /** As last read from the service; null before the first check. */
  readonly onboardingStatus: string | null
  /** What onboarding still needs, as last read. */
  readonly onboardingErrors: readonly OnboardingProblem[]
  /** The checkout has a store to sell from (the handler's store id is set). */
  readonly checkoutReady: boolean
  /** Registered with `readyMadeStore: true`: the store came onboarded. */
  readonly readyMadeStore: boolean
}

/** Settings a new back-office account forgets: they belong to the earlier one. */
export const ACCOUNT_SETTINGS = [
  SETTING.contractorId,
  SETTING.chosenStoreId,
  SETTING.onboardingStatus,
  SETTING.onboardingErrors,
  SETTING.readyMadeStore,
] as const

function problemsOf(text: string | undefined): OnboardingProblem[] {
  try {
    const parsed: unknown = JSON.parse(text || '[]')
    return Array.isArray(parsed) ? (parsed as OnboardingProblem[]) : []
  } catch {
    return []
  }
}

export async function readSetupState(store: LedgerStore): Promise<MerchantSetupState> {
  const read = (id: string) => store.getSetting(id).then((value) => value || null)
  const [email, user, contractorId, storeId, status, errors, readyMade, selling] = await Promise.all([
    read(SETTING.merchantEmail),
    read(SETTING.backofficeUser),
    read(SETTING.contractorId),
    read(SETTING.chosenStoreId),
    read(SETTING.onboardingStatus),
    read(SETTING.onboardingErrors),
    read(SETTING.readyMadeStore),
    read(SETTING.storeId),
  ])
  return {
    email,
    backofficeUser: user === 'connected',
    contractorId,
    storeId: storeId ?? selling,
    onboardingStatus: status,
    onboardingErrors: problemsOf(errors ?? undefined),
    checkoutReady: selling !== null,
    readyMadeStore: readyMade === 'yes',
  }
}

/** The store the checkout may sell from: the chosen one once onboarded, else none (''). */
export const sellingStoreOf = (state: MerchantSetupState): string =>
  state.storeId !== null && state.onboardingStatus === ONBOARDED_STATUS ? state.storeId : ''

/** Registration's ready-made store comes onboarded: the set-up has nothing left to do, and the checkout sells from it. */
export async function recordReadyMadeStore(store: LedgerStore, storeId: string): Promise<void> {
  await store.putSettings({
    [SETTING.chosenStoreId]: storeId,
    [SETTING.onboardingStatus]: ONBOARDED_STATUS,
    [SETTING.onboardingErrors]: '[]',
    [SETTING.readyMadeStore]: 'yes',
    [SETTING.storeId]: storeId,
  })
}

/** The account's set-up progress emptied: a new account or contractor starts the set-up again. */
export const forgottenAccount = (): Record<string, string> => Object.fromEntries(ACCOUNT_SETTINGS.map((id) => [id, '']))

/** `value` by `schema`, or 400 INVALID_INPUT naming each field and rule (never the value). */
export function checked<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value, MISSING_AS_REQUIRED)
  if (result.success) return result.data
  invalid(issuesOf(result.error))
}

export function invalid(issues: ValidationIssue[]): never {
  throw new ShopBackendError('INVALID_INPUT', describeIssues(issues), issues)
}

/** An earlier step is missing: 409 naming it (`details.missing`). */
export function stepMissing(missing: 'email' | 'contractor' | 'store', message: string): ShopBackendError {
  return new ShopBackendError('SETUP_STEP_MISSING', message, { missing })
}

/**
 * The port's failure as the set-up's answer: no answer is 503 SERVICE_UNREACHABLE; a refusal is
 * SETUP_REFUSED with the service's code and words when it is the merchant's to fix (409), else
 * SERVICE_REFUSED (502: the service failed). Anything else (a bug) goes on as it is.
 */
export function setupFailure(error: unknown): never {
  if (!(error instanceof PaymentServiceError)) throw error
  const { status, code: serviceCode, message } = error
  if (status === undefined)
    throw new ShopBackendError('SERVICE_UNREACHABLE', 'The payment service could not be reached. Try again in a moment.')
  if (status >= 500) throw new ShopBackendError('SERVICE_REFUSED', `the payment service failed (${serviceCode})`, { serviceCode })
  throw new ShopBackendError('SETUP_REFUSED', message, { serviceCode })
}

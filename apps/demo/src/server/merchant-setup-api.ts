import { z } from 'zod'
import {
  ConnectContractorRequestSchema,
  CreateStoreRequestSchema,
  EmailVerificationRequestSchema,
  ISO_4217_MINOR_UNITS,
  parseJsonBody,
  VerificationCodeSchema,
} from '@card-jwe/payment-validator'
import {
  ServiceError,
  ServiceUnreachableError,
  type CountryList,
  type IndustryCodeList,
  type ServiceClient,
} from '@card-jwe/service-client'
import { HttpError } from './http-error.js'
import type { Settings } from './settings.js'

/** No answer from the service within the call's deadline: said as such, not as an internal error. */
const UNREACHABLE = 'The payment service could not be reached. Try again in a moment.'

/** The onboarding status value that lets the checkout take payments (docs/decisions.md). */
export const ONBOARDED_STATUS = 'verified'

export interface MerchantSetupContext {
  readonly settings: Settings
  readonly client: () => ServiceClient
  /**
   * Tells the shop back end which store the checkout sells from: the store once it is onboarded,
   * '' while there is none (the checkout stays closed).
   */
  readonly checkoutStore: (storeId: string) => Promise<void>
  /** The embedded sandbox's inbox, where verification codes land; absent with a real service. */
  readonly sandboxInboxUrl?: string
}

/** What the admin wizard and the checkout need to know about the shop's connection. */
export function setupState(context: MerchantSetupContext) {
  const s = context.settings
  const storeId = s.get('store_id') || null
  const onboardingStatus = s.get('onboarding_status') || null
  return {
    email: s.get('merchant_email') || null,
    backofficeUser: s.get('backoffice_user') === 'connected',
    contractorId: s.get('contractor_id') || null,
    storeId,
    onboardingStatus,
    onboardingErrors: JSON.parse(s.get('onboarding_errors') || '[]') as Array<{ problem: string; actions: string[] }>,
    checkoutReady: storeId !== null && onboardingStatus === ONBOARDED_STATUS,
    /** The quick start's store (`--ready-made-store`): nothing for the merchant to connect. */
    readyMadeStore: s.get('ready_made_store') === 'yes',
    sandboxInbox: context.sandboxInboxUrl !== undefined,
  }
}

/** Service refusals in the wizard are the merchant's to fix: their code and message go to the page. */
async function service<T>(call: Promise<T>): Promise<T> {
  try {
    return await call
  } catch (error) {
    if (error instanceof ServiceUnreachableError) throw new HttpError(503, 'SERVICE_UNREACHABLE', UNREACHABLE)
    if (error instanceof ServiceError) throw new HttpError(error.status >= 500 ? 502 : 409, error.errorCode, error.message)
    throw error
  }
}

function bodyOf<T>(body: Uint8Array, schema: z.ZodType<T>, code: string): T {
  const parsed = parseJsonBody(body, schema)
  if (!parsed.ok) throw new HttpError(400, code, parsed.error.message, parsed.error.issues)
  return parsed.value
}

/** Re-reads the onboarding status of the current contractor and keeps it for the checkout. */
async function refreshOnboarding(context: MerchantSetupContext) {
  const status = await service(context.client().onboardingStatus())
  context.settings.set('onboarding_status', status.status)
  context.settings.set('onboarding_errors', JSON.stringify(status.errors ?? []))
  const state = setupState(context)
  await context.checkoutStore(state.checkoutReady ? state.storeId! : '')
  return state
}

/** The store to sell from, once chosen or created; its contractor is then the current one. */
async function useStore(context: MerchantSetupContext, storeId: string, contractorId: string | undefined) {
  context.settings.set('store_id', storeId)
  if (contractorId) context.settings.set('contractor_id', contractorId)
  return refreshOnboarding(context)
}

/** The service's lists, read once per shop (they are reference data). */
const listsOf = new WeakMap<MerchantSetupContext, { countries: CountryList; industryCodes: IndustryCodeList }>()

const StoreChoiceSchema = z.strictObject({ storeId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) })
const CodeSchema = z.strictObject({ code: VerificationCodeSchema })
const MethodsSchema = z.strictObject({ scheme: z.boolean(), ideal: z.boolean() })

/**
 * The admin's "connect your account" wizard, step by step in the spec's order ("Endpoints" rules 3
 * and 4): email, code, contractor or new store, onboarding link and return, status re-check.
 * Returns undefined for paths that are not the wizard's.
 */
export async function handleMerchantSetup(method: string, path: string, body: Uint8Array, context: MerchantSetupContext): Promise<unknown> {
  const s = context.settings
  const step = `${method} ${path.replace(/^\/api\/admin\/setup/, '')}`
  switch (step) {
    case 'GET ':
    case 'GET /':
      return setupState(context)
    case 'POST /email': {
      const { email } = bodyOf(body, EmailVerificationRequestSchema, 'INVALID_EMAIL')
      await service(context.client().sendVerificationEmail(email))
      s.set('merchant_email', email)
      return setupState(context)
    }
    case 'GET /inbox': {
      const email = s.get('merchant_email')
      if (!context.sandboxInboxUrl || !email)
        throw new HttpError(404, 'NO_INBOX', 'the inbox exists only on the embedded sandbox, after a code was sent')
      const response = await fetch(`${context.sandboxInboxUrl}?email=${encodeURIComponent(email)}`, { signal: AbortSignal.timeout(5000) })
      const inbox = (await response.json()) as { messages: Array<{ subject: string; text: string; sentAt: string }> }
      return { messages: inbox.messages.map(({ subject, text, sentAt }) => ({ subject, text, sentAt })) }
    }
    case 'POST /code': {
      const email = s.get('merchant_email')
      if (!email) throw new HttpError(409, 'EMAIL_FIRST', 'email: send a verification code first')
      const { code } = bodyOf(body, CodeSchema, 'INVALID_CODE')
      await service(context.client().connectBackofficeUser({ email, code }))
      // A new account: any earlier contractor and store belong to another one.
      for (const id of ['contractor_id', 'store_id', 'onboarding_status', 'onboarding_errors']) s.set(id, '')
      await context.checkoutStore('')
      s.set('backoffice_user', 'connected')
      return setupState(context)
    }
    case 'GET /contractors':
      return service(context.client().listContractors())
    case 'POST /contractor': {
      const { contractorId } = bodyOf(body, ConnectContractorRequestSchema, 'INVALID_CONTRACTOR')
      await service(context.client().connectContractor(contractorId))
      s.set('contractor_id', contractorId)
      // Only now does GET stores answer for this contractor (spec: Endpoints rule 3).
      return service(context.client().listStores())
    }
    case 'POST /store-choice': {
      const { storeId } = bodyOf(body, StoreChoiceSchema, 'INVALID_STORE')
      const stores = await service(context.client().listStores())
      const store = stores.find((candidate) => candidate.id === storeId)
      if (!store) throw new HttpError(404, 'STORE_NOT_FOUND', 'storeId: not a store of the connected contractor')
      return useStore(context, store.id, store.contractorId)
    }
    case 'GET /lists': {
      let lists = listsOf.get(context)
      if (!lists) {
        lists = { countries: await service(context.client().countries()), industryCodes: await service(context.client().industryCodes()) }
        listsOf.set(context, lists)
      }
      return { ...lists, currencies: Object.keys(ISO_4217_MINOR_UNITS) }
    }
    case 'POST /store': {
      const request = bodyOf(body, CreateStoreRequestSchema, 'INVALID_STORE')
      const store = await service(context.client().createStore(request))
      return useStore(context, store.id, store.contractorId)
    }
    case 'POST /onboarding-link':
      return service(context.client().createOnboardingLink())
    case 'POST /status':
      return refreshOnboarding(context)
    case 'POST /payment-methods': {
      const storeId = s.get('store_id')
      if (!storeId) throw new HttpError(409, 'STORE_FIRST', 'choose or create a store first')
      const wanted = bodyOf(body, MethodsSchema, 'INVALID_METHODS')
      return service(
        context.client().setStorePaymentMethods(storeId, {
          paymentMethods: [
            { type: 'scheme', enabled: wanted.scheme },
            { type: 'ideal', enabled: wanted.ideal },
          ],
        }),
      )
    }
    default:
      return undefined
  }
}

import * as z from 'zod'
import { parseJsonBody, type CreateStoreRequest } from '@card-jwe/payment-validator'
import { httpStatusOf, ShopBackendError, type MerchantSetup } from '@card-jwe/shop-backend'
import { HttpError } from './http-error.js'

export interface MerchantSetupContext {
  /** The shop back end's set-up: it keeps the progress and opens the checkout once the store is onboarded. */
  readonly setup: MerchantSetup
  /** The embedded sandbox's inbox, where verification codes land; absent with a real service. */
  readonly sandboxInboxUrl?: string
}

/** What the admin wizard needs to know about the shop's connection. */
export async function setupState(context: MerchantSetupContext) {
  return { ...(await context.setup.state()), sandboxInbox: context.sandboxInboxUrl !== undefined }
}

/**
 * The back end's refusal as the wizard's error. A service refusal goes under the service's own code
 * (the page branches on `VERIFICATION_…`), with its message: the merchant's to fix.
 */
function fromBackend(error: unknown): never {
  if (!(error instanceof ShopBackendError)) throw error
  const status = httpStatusOf(error.code)
  if (error.code === 'SETUP_REFUSED' || error.code === 'SERVICE_REFUSED')
    throw new HttpError(status, (error.details as { serviceCode: string }).serviceCode, error.message)
  throw new HttpError(status, error.code, error.message, error.details)
}

/** Any JSON object; the back end checks each field by its rule. */
const JsonObjectSchema = z.record(z.string(), z.unknown())

function fieldsOf(body: Uint8Array): Record<string, unknown> {
  const parsed = parseJsonBody(body, JsonObjectSchema)
  if (!parsed.ok) throw new HttpError(400, 'INVALID_BODY', parsed.error.message, parsed.error.issues)
  return parsed.value
}

/** The sandbox's mails to the merchant's address (the code to type), for the wizard to show. */
async function inbox(context: MerchantSetupContext) {
  const { email } = await context.setup.state()
  if (!context.sandboxInboxUrl || !email)
    throw new HttpError(404, 'NO_INBOX', 'the inbox exists only on the embedded sandbox, after a code was sent')
  const response = await fetch(`${context.sandboxInboxUrl}?email=${encodeURIComponent(email)}`, { signal: AbortSignal.timeout(5000) })
  const mails = (await response.json()) as { messages: Array<{ subject: string; text: string; sentAt: string }> }
  return { messages: mails.messages.map(({ subject, text, sentAt }) => ({ subject, text, sentAt })) }
}

/**
 * The admin's "connect your account" wizard over HTTP, step by step in the spec's order
 * ("Endpoints" rules 3 and 4), on `backend.merchantSetup`. Returns undefined for paths that are not
 * the wizard's.
 */
export async function handleMerchantSetup(method: string, path: string, body: Uint8Array, context: MerchantSetupContext): Promise<unknown> {
  const { setup } = context
  const field = (name: string) => fieldsOf(body)[name] as string
  // A step that changes the progress answers with the state, as the page renders from it.
  const thenState = async (change: Promise<unknown>) => {
    await change
    return setupState(context)
  }
  const step = `${method} ${path.replace(/^\/api\/admin\/setup/, '')}`
  const run = (): Promise<unknown> | undefined => {
    switch (step) {
      case 'GET ':
      case 'GET /':
        return setupState(context)
      case 'POST /email':
        return thenState(setup.sendVerificationEmail(field('email')))
      case 'GET /inbox':
        return inbox(context)
      case 'POST /code':
        return thenState(setup.verifyCode(field('code')))
      case 'GET /contractors':
        return setup.listContractors()
      case 'POST /contractor':
        return setup.chooseContractor(field('contractorId'))
      case 'POST /store-choice':
        return thenState(setup.chooseStore(field('storeId')))
      case 'GET /lists':
        return setup.lists()
      case 'POST /store':
        return thenState(setup.createStore(fieldsOf(body) as unknown as CreateStoreRequest))
      case 'POST /onboarding-link':
        return setup.onboardingLink()
      case 'POST /status':
        return thenState(setup.refreshOnboarding())
      case 'POST /payment-methods':
        return setup.setPaymentMethods(fieldsOf(body) as unknown as { scheme: boolean; ideal: boolean })
      default:
        return undefined
    }
  }
  try {
    return await run()
  } catch (error) {
    fromBackend(error)
  }
}

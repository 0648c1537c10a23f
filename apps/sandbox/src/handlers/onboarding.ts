import { randomBytes } from 'node:crypto'
import { OnboardingLinkRequestSchema } from '@card-jwe/payment-validator'
import { authenticate } from '../authenticate.js'
import { SandboxError } from '../errors.js'
import { jsonOf } from '../http/parse-body.js'
import { json } from '../http/json.js'
import { nowSeconds } from '../lib/clock.js'
import { currentContractor, ONBOARDING_CLEAR, type ContractorRow } from '../merchant-store.js'
import type { SandboxContext } from '../context.js'
import type { RequestContext } from '../http/handler.js'

/** How long an onboarding link can be opened; hosted onboarding links are short-lived. */
export const ONBOARDING_LINK_TTL_SECONDS = 30 * 60

/** What a contractor must still supply, as `errors[]` of the onboarding status (spec: "Onboarding status"). */
export function onboardingProblems(contractor: Pick<ContractorRow, 'type'>): Array<{ problem: string; actions: string[] }> {
  return [
    {
      problem: "The identity of the contractor's owner has not been verified.",
      actions: ["Open an onboarding link and enter the owner's date of birth and identity document number."],
    },
    ...(contractor.type === 'organization'
      ? [
          {
            problem: 'The company registration has not been verified.',
            actions: ['Open an onboarding link and enter the company registration number.'],
          },
        ]
      : []),
    { problem: 'No bank account for payouts is linked.', actions: ['Open an onboarding link and enter the IBAN of the payout account.'] },
  ]
}

/** GET /shopplatform/processor/onboarding-status: of the current contractor. */
export async function onboardingStatus(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  const contractor = currentContractor(context, shop)
  if (contractor.onboarding_status === ONBOARDING_CLEAR) return json({ status: ONBOARDING_CLEAR, contractorId: contractor.contractor_id })
  return json({ status: contractor.onboarding_status, contractorId: contractor.contractor_id, errors: onboardingProblems(contractor) })
}

/**
 * POST /shopplatform/processor/onboarding-links (body not shown: none or `{}`): a one-time link to
 * the sandbox's identity page for the current contractor, valid ONBOARDING_LINK_TTL_SECONDS.
 */
export async function createOnboardingLink(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  const body = jsonOf(c)
  if (body !== undefined && !OnboardingLinkRequestSchema.safeParse(body).success)
    throw new SandboxError('INVALID_REQUEST', 'onboarding link: the body must be empty or {}')
  const contractor = currentContractor(context, shop)
  if (contractor.onboarding_status === ONBOARDING_CLEAR)
    throw new SandboxError('ONBOARDING_ALREADY_COMPLETE', 'onboarding: the current contractor is already verified; nothing to do')
  const token = randomBytes(24).toString('base64url')
  const expiresAt = nowSeconds(context) + ONBOARDING_LINK_TTL_SECONDS
  context.merchants.insertOnboardingLink({ token, shop_id: shop.shop_id, contractor_id: contractor.contractor_id, expires_at: expiresAt })
  return json({ uri: `${context.baseUrl}/onboarding/${token}` }, 201)
}

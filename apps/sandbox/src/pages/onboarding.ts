import { html } from 'hono/html'
import { formOf } from '../http/parse-body.js'
import { nowSeconds } from '../lib/clock.js'
import { SHOP_SIDE_PATHS } from '@card-jwe/service-client'
import { ONBOARDING_CLEAR, type ContractorRow, type OnboardingLinkRow } from '../merchant-store.js'
import { page } from './page.js'
import type { SandboxContext } from '../context.js'
import type { RequestContext } from '../http/handler.js'

/** Said on the identity form, so nobody types real data into the sandbox. */
const TEST_VALUES_NOTE = html`This is the sandbox: the fields hold test values; do not enter real data.`

/** Test values the page offers: real company or personal data must not be used in development (spec). */
const TEST_VALUES = Object.freeze({
  birthDate: '1980-01-01',
  documentNumber: 'SPECI2014',
  registrationNumber: '12345678',
  iban: 'NL91ABNA0417164300',
})

/** ISO 13616: move the first four characters to the end, letters to numbers, the remainder mod 97 is 1. */
function validIban(iban: string): boolean {
  const compact = iban.replace(/ /g, '').toUpperCase()
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false
  const digits = (compact.slice(4) + compact.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55))
  let remainder = 0
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97
  return remainder === 1
}

/** Field problems of the identity form: named fields and rules, never the values. */
function problemsOf(form: URLSearchParams, contractor: ContractorRow, today: Date): string[] {
  const problems: string[] = []
  const birth = form.get('birthDate') ?? ''
  const born = /^\d{4}-\d{2}-\d{2}$/.test(birth) ? new Date(`${birth}T00:00:00Z`) : undefined
  const adultBefore = new Date(Date.UTC(today.getUTCFullYear() - 18, today.getUTCMonth(), today.getUTCDate()))
  if (!born || Number.isNaN(born.getTime()) || born > adultBefore)
    problems.push('Date of birth: a date (YYYY-MM-DD) at least 18 years ago.')
  if (!/^[A-Z0-9]{6,20}$/i.test(form.get('documentNumber') ?? '')) problems.push('Identity document number: 6 to 20 letters or digits.')
  if (contractor.type === 'organization' && !/^[A-Z0-9]{4,20}$/i.test(form.get('registrationNumber') ?? ''))
    problems.push('Company registration number: 4 to 20 letters or digits.')
  if (!validIban(form.get('iban') ?? '')) problems.push('IBAN: not a valid IBAN (ISO 13616 check digits).')
  return problems
}

function linkOf(context: SandboxContext, token: string | undefined): { link: OnboardingLinkRow; contractor: ContractorRow } | string {
  const link = token ? context.merchants.onboardingLink(token) : undefined
  if (!link) return 'This onboarding link does not exist.'
  if (link.used_at) return 'This onboarding link was already used. Ask the shop for a new one.'
  if (link.expires_at < nowSeconds(context)) return 'This onboarding link has expired. Ask the shop for a new one.'
  const contractor = context.merchants.contractor(link.contractor_id)!
  return { link, contractor }
}

function deadLink(c: RequestContext, reason: string): Response | Promise<Response> {
  return page(c, { title: 'Sandbox onboarding', body: html`<h1>Sandbox onboarding</h1><p id="onboarding-error">${reason}</p>` }, 410)
}

function identityForm(c: RequestContext, token: string, contractor: ContractorRow, problems: string[] = []): Response | Promise<Response> {
  const field = (name: keyof typeof TEST_VALUES, label: string) =>
    html`<label for="${name}">${label}</label><input id="${name}" name="${name}" value="${TEST_VALUES[name]}" required>`
  const errors = problems.length ? html`<ul id="onboarding-problems" role="alert">${problems.map((p) => html`<li>${p}</li>`)}</ul>` : ''
  const parts = {
    title: 'Sandbox onboarding',
    body: html`<h1>Sandbox onboarding</h1>
<p>Verify <strong>${contractor.name}</strong> (${contractor.country}, ${contractor.type}). ${TEST_VALUES_NOTE}</p>
${errors}<form method="post" action="/onboarding/${token}">
${field('birthDate', `Date of birth of ${contractor.owner_first_name} ${contractor.owner_last_name}`)}
${field('documentNumber', 'Identity document number')}
${contractor.type === 'organization' ? field('registrationNumber', 'Company registration number') : ''}
${field('iban', 'IBAN of the payout account')}
<p><button type="submit">Submit for verification</button></p></form>`,
  }
  return page(c, parts, problems.length ? 422 : 200)
}

/** GET /onboarding/{token}: the processor's identity page, as the sandbox plays it. */
export function onboardingPage(c: RequestContext, context: SandboxContext): Response | Promise<Response> {
  const found = linkOf(context, c.req.param('token'))
  return typeof found === 'string' ? deadLink(c, found) : identityForm(c, found.link.token, found.contractor)
}

/**
 * POST /onboarding/{token}: checks the form, marks the contractor verified and the link used, and
 * sends the merchant back to the shop's onboarding-return endpoint (spec: "Onboarding").
 */
export function onboardingSubmit(c: RequestContext, context: SandboxContext): Response | Promise<Response> {
  const found = linkOf(context, c.req.param('token'))
  if (typeof found === 'string') return deadLink(c, found)
  const problems = problemsOf(formOf(c), found.contractor, context.now())
  if (problems.length > 0) return identityForm(c, found.link.token, found.contractor, problems)
  const shop = context.shops.find(found.link.shop_id)!
  context.db.transaction(() => {
    context.merchants.spendOnboardingLink(found.link.token, context.now().toISOString())
    context.merchants.setOnboardingStatus(found.contractor.contractor_id, ONBOARDING_CLEAR)
  })()
  context.log(`contractor ${found.contractor.contractor_id} verified`)
  return c.redirect(shop.base_url + SHOP_SIDE_PATHS.onboardingReturn, 303)
}

/**
 * The admin's "connect your account" wizard: one step on screen at a time, in the spec's order
 * (email, code, contractor or new store, onboarding and return, status re-check). Every call goes
 * to the shop's own backend, which signs and forwards it to the payment service.
 */
import { api, ApiError } from './api.js'

interface SetupState {
  email: string | null
  backofficeUser: boolean
  contractorId: string | null
  storeId: string | null
  onboardingStatus: string | null
  onboardingErrors: Array<{ problem: string; actions: string[] }>
  checkoutReady: boolean
  readyMadeStore: boolean
  sandboxInbox: boolean
}
interface Contractor {
  id: string
  name: string
  country: string
  type: string
}
interface Store {
  id: string
  label?: string
  contractorId?: string
}
interface Lists {
  countries: Array<{ code: string; name: string }>
  industryCodes: Array<{ code: string; description: string }>
  currencies: string[]
}

const STEPS = ['step-email', 'step-code', 'step-contractor', 'step-store', 'step-onboarding', 'step-done'] as const
type Step = (typeof STEPS)[number]

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!
const summary = $('#setup-summary')
const say = (text: string) => (summary.textContent = text)

function show(step: Step): void {
  for (const id of STEPS) $(`#${id}`).hidden = id !== step
}

function fieldError(input: HTMLElement, message: string | undefined): void {
  const error = document.getElementById(`${input.id}-error`)
  input.setAttribute('aria-invalid', message ? 'true' : 'false')
  if (error) {
    error.textContent = message ?? ''
    error.hidden = !message
  }
}

/** Runs a step's action with the button disabled; service refusals are shown, never swallowed. */
function onSubmit(form: HTMLFormElement, action: () => Promise<void>): void {
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void guarded(form.querySelector('button[type="submit"]'), action)
  })
}

async function guarded(button: HTMLButtonElement | null, action: () => Promise<void>): Promise<void> {
  if (button) button.disabled = true
  try {
    await action()
  } catch (error) {
    say(error instanceof ApiError ? `${error.message} (${error.code})` : (error as Error).message)
  } finally {
    if (button) button.disabled = false
  }
}

/** A button that runs one wizard action. */
function onClick(id: string, action: () => Promise<void>): void {
  const button = $<HTMLButtonElement>(`#${id}`)
  button.addEventListener('click', () => void guarded(button, action))
}

function radios(container: HTMLElement, name: string, items: Array<{ value: string; label: string }>): void {
  for (const label of container.querySelectorAll('label')) label.remove()
  items.forEach((item, index) => {
    const label = Object.assign(document.createElement('label'), { className: 'check' })
    const input = Object.assign(document.createElement('input'), { type: 'radio', name, value: item.value, checked: index === 0 })
    label.append(input, ` ${item.label}`)
    container.append(label)
  })
}

const chosen = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]:checked`)?.value

async function showInbox(): Promise<void> {
  const inbox = await api<{ messages: Array<{ text: string }> }>('/api/admin/setup/inbox')
  $('#inbox-message').textContent = inbox.messages[0]?.text ?? 'No mail yet.'
  $('#inbox').hidden = false
}

async function showContractors(contractors: Contractor[]): Promise<void> {
  radios(
    $('#contractor-list'),
    'contractor',
    contractors.map((c) => ({ value: c.id, label: `${c.name} (${c.country}, ${c.type})` })),
  )
  $('#store-list').hidden = true
  $('#use-store').hidden = true
  show('step-contractor')
  say('Your account already has contractors. Choose one and a store, or create a new store.')
}

let listsLoaded = false
async function showStoreForm(): Promise<void> {
  if (!listsLoaded) {
    const lists = await api<Lists>('/api/admin/setup/lists')
    const options: Record<string, Array<{ value: string; label: string }>> = {
      countries: lists.countries.map((c) => ({ value: c.code, label: `${c.name} (${c.code})` })),
      industryCodes: lists.industryCodes.map((c) => ({ value: c.code, label: `${c.code} ${c.description}` })),
      currencies: lists.currencies.map((code) => ({ value: code, label: code })),
    }
    const defaults: Record<string, string> = { countries: 'NL', industryCodes: '5499', currencies: 'EUR' }
    for (const select of document.querySelectorAll<HTMLSelectElement>('select[data-list]')) {
      const list = select.dataset.list!
      select.replaceChildren(...options[list]!.map((o) => new Option(o.label, o.value, false, o.value === defaults[list])))
    }
    listsLoaded = true
  }
  show('step-store')
  say('Create your store. Every field is required unless marked optional.')
  $<HTMLInputElement>('#contractor-name').focus()
}

/** The create-store body (spec: "Create-store request body") from the form's data-path fields. */
function storeBody(): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const field of document.querySelectorAll<HTMLInputElement | HTMLSelectElement>('#step-store [data-path]')) {
    const keys = field.dataset.path!.split('.')
    let target = body
    for (const key of keys.slice(0, -1)) {
      target[key] ??= {}
      target = target[key] as Record<string, unknown>
    }
    target[keys.at(-1)!] = field.value.trim()
  }
  return body
}

/** The shop's rule codes (payment-validator's issuesOf) as a merchant reads them; other rules are words already. */
const RULE_WORDS: Record<string, string> = {
  too_small: 'required',
  too_big: 'too long',
  invalid_value: 'choose one of the options',
}

/** "Legal name: required": the field's own label and the rule in words, not `contractor.name (too_small)`. */
function problemText(problem: { path: string; rule: string }): string {
  const field = document.querySelector<HTMLElement>(`#step-store [data-path="${CSS.escape(problem.path)}"]`)
  const label = field ? document.querySelector(`label[for="${field.id}"]`)?.textContent?.trim() : undefined
  const words = RULE_WORDS[problem.rule] ?? (problem.rule.startsWith('format:') ? 'not in the expected format' : problem.rule)
  return `${label ?? problem.path}: ${words}`
}

function showStoreErrors(error: unknown): void {
  const fields = document.querySelectorAll<HTMLElement>('#step-store [data-path]')
  for (const field of fields) field.removeAttribute('aria-invalid')
  const problems = error instanceof ApiError && error.details ? error.details : []
  for (const problem of problems)
    document.querySelector(`#step-store [data-path="${CSS.escape(problem.path)}"]`)?.setAttribute('aria-invalid', 'true')
  const message = $('#store-form-error')
  message.textContent = problems.length
    ? `Please correct: ${problems.map(problemText).join('; ')}.`
    : error instanceof Error
      ? error.message
      : 'The store could not be created.'
  message.hidden = false
  document.querySelector<HTMLElement>('#step-store [aria-invalid="true"]')?.focus()
}

function showOnboarding(state: SetupState): void {
  $('#onboarding-status').textContent = state.onboardingStatus ?? 'unknown'
  $('#onboarding-problems').replaceChildren(
    ...state.onboardingErrors.map((e) =>
      Object.assign(document.createElement('li'), { textContent: `${e.problem} ${e.actions.join(' ')}` }),
    ),
  )
  show('step-onboarding')
  say('Your store is created. Complete the verification to start taking payments.')
}

/** Shows the step the shop's state calls for. */
async function render(state: SetupState): Promise<void> {
  // The quick start's store takes payments already: no step to walk, nothing to connect.
  if (state.readyMadeStore && state.checkoutReady) return showDone(state)
  if (!state.backofficeUser) {
    if (state.email) {
      show('step-code')
      say(`A code was sent to ${state.email}.`)
      if (state.sandboxInbox) await showInbox()
    } else {
      show('step-email')
      say('Step 1: connect your merchant account.')
    }
    return
  }
  if (!state.storeId) {
    const contractors = await api<Contractor[]>('/api/admin/setup/contractors')
    if (contractors.length > 0) await showContractors(contractors)
    else await showStoreForm()
    return
  }
  if (!state.checkoutReady) {
    showOnboarding(state)
    return
  }
  await showDone(state)
}

async function showDone(state: SetupState): Promise<void> {
  $('#setup-title').textContent = 'Your shop'
  $('#done-summary').textContent = state.readyMadeStore
    ? `Quick start: the sandbox's ready-made store ${state.storeId} is onboarded, so the checkout takes payments. ` +
      'There is no account to connect.'
    : `Store ${state.storeId} is onboarded. The checkout takes payments.`
  const offered = (await api<{ paymentMethods: string[] }>('/api/config')).paymentMethods
  $<HTMLInputElement>('#method-scheme').checked = offered.includes('scheme')
  $<HTMLInputElement>('#method-ideal').checked = offered.includes('ideal')
  show('step-done')
  say(state.readyMadeStore ? 'Ready to take payments (ready-made test store).' : 'Your account is connected and your store is onboarded.')
}

export async function startSetupWizard(): Promise<void> {
  onSubmit($<HTMLFormElement>('#step-email'), async () => {
    const input = $<HTMLInputElement>('#merchant-email')
    fieldError(input, input.validity.valid && input.value ? undefined : 'Enter an email address, like name@example.com.')
    if (input.getAttribute('aria-invalid') === 'true') return input.focus()
    await render(await api<SetupState>('/api/admin/setup/email', { email: input.value.trim() }))
    $<HTMLInputElement>('#verification-code').focus()
  })
  onSubmit($<HTMLFormElement>('#step-code'), async () => {
    const input = $<HTMLInputElement>('#verification-code')
    const code = input.value.replace(/\s/g, '')
    fieldError(input, /^\d{6}$/.test(code) ? undefined : 'Enter the six digits from the mail.')
    if (input.getAttribute('aria-invalid') === 'true') return input.focus()
    try {
      await render(await api<SetupState>('/api/admin/setup/code', { code }))
    } catch (error) {
      if (error instanceof ApiError && error.code.startsWith('VERIFICATION_')) return fieldError(input, error.message)
      throw error
    }
  })
  $('#resend-code').addEventListener('click', () => {
    show('step-email')
    $<HTMLInputElement>('#merchant-email').focus()
  })
  onClick('inbox-refresh', showInbox)
  onClick('use-contractor', async () => {
    const stores = await api<Store[]>('/api/admin/setup/contractor', { contractorId: chosen('contractor') })
    radios(
      $('#store-list'),
      'store',
      stores.map((s) => ({ value: s.id, label: s.label ?? s.id })),
    )
    $('#store-list').hidden = stores.length === 0
    $('#use-store').hidden = stores.length === 0
    say(stores.length ? 'Choose the store to sell from, or create a new one.' : 'This contractor has no stores yet: create one.')
  })
  onClick('use-store', async () => render(await api<SetupState>('/api/admin/setup/store-choice', { storeId: chosen('store') })))
  onClick('show-store-form', showStoreForm)
  onSubmit($<HTMLFormElement>('#step-store'), async () => {
    $('#store-form-error').hidden = true
    try {
      await render(await api<SetupState>('/api/admin/setup/store', storeBody()))
    } catch (error) {
      showStoreErrors(error)
    }
  })
  onClick('start-onboarding', async () => {
    const { uri } = await api<{ uri: string }>('/api/admin/setup/onboarding-link', {})
    say('Taking you to the payment service’s verification page…')
    location.assign(uri)
  })
  onClick('recheck-onboarding', async () => render(await api<SetupState>('/api/admin/setup/status', {})))
  onClick('save-methods', async () => {
    await api('/api/admin/setup/payment-methods', {
      scheme: $<HTMLInputElement>('#method-scheme').checked,
      ideal: $<HTMLInputElement>('#method-ideal').checked,
    })
    say('Payment methods saved.')
  })

  // Back from the verification page (the shop's onboarding-return endpoint sent us here): re-check.
  const returned = new URLSearchParams(location.search).get('onboarding') === 'returned'
  if (returned) history.replaceState(null, '', location.pathname)
  await render(await (returned ? api<SetupState>('/api/admin/setup/status', {}) : api<SetupState>('/api/admin/setup')))
}

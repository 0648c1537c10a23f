/**
 * The checkout page: catalogue and cart, the card form, the payment and every further step
 * (redirect, 3-D Secure fingerprint and challenge), and the result. Imports only our browser
 * packages (card-jwe, browser-info, card-fields, checkout-actions); everything else goes through
 * the shop's own backend. The test shopper's sign-in and saved cards are in shopper-sign-in.ts and
 * saved-cards.ts.
 */
import { collectBrowserInfo } from '@card-jwe/browser-info'
import { attachCardFields, BRAND_NAMES } from '@card-jwe/card-fields'
import { CheckoutActionError, handleAction } from '@card-jwe/checkout-actions'
import { CardJweError, encryptCard, importCertificate, toPaymentMethod, type EncryptionCertificate } from 'card-jwe'
import { api, ApiError, formatAmount, type PaymentResult, type PublicOrder } from './api.js'
import { applyLanguage } from './language.js'
import { offerSavedCards, savedCardFocus, storeCardChoice, type PaymentChoice, type PaymentForm } from './saved-cards.js'
import { startShopperSignIn } from './shopper-sign-in.js'
import './styles.css'

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!
const status = $('#status')
const announce = (text: string) => (status.textContent = text)

let certificate: EncryptionCertificate
let order: PublicOrder | undefined
/** One payment attempt at a time: while one runs, Pay and "pay with iDEAL" are disabled. */
let busy = false
/** Set when the page leaves for the bank, so a Back (page restored from the bfcache) can recover. */
let leftForBank = false

/** sessionStorage key: the order whose shopper went to the bank and has not come back through the return URL. */
const ORDER_AT_BANK = 'order-at-bank'
const CAME_BACK = 'You came back without finishing at your bank. Pay by card, or choose iDEAL again.'

function setBusy(on: boolean, fields?: PaymentForm): void {
  busy = on
  $<HTMLButtonElement>('#pay').disabled = on
  $<HTMLButtonElement>('#pay-ideal').disabled = on
  $<HTMLButtonElement>('#pay-klarna').disabled = on
  fields?.setDisabled(on)
}

function showSection(id: 'shop' | 'checkout' | 'result' | 'not-ready'): void {
  for (const section of ['shop', 'checkout', 'result', 'not-ready']) $(`#${section}`).hidden = section !== id
}

/** What the shopper reads for each final resultCode. */
const OUTCOMES: Record<string, string> = {
  Authorised: 'Payment authorised. Thank you!',
  Refused: 'The payment was refused. No money was taken.',
  Cancelled: 'You cancelled the payment. No money was taken.',
}

function showResult(resultCode: string, message?: string): void {
  $('#result-title').textContent = OUTCOMES[resultCode] ?? 'The payment could not be completed.'
  // The same order (basket, amount, reference) can be paid again after any result but success.
  $('#retry-payment').hidden = resultCode === 'Authorised' || !order
  $('#result-code').textContent = resultCode
  $('#result-order').textContent = order ? `${order.reference} (order ${order.id})` : ''
  $('#result-message').textContent = message ?? ''
  showSection('result')
  $<HTMLHeadingElement>('#result-title').focus()
  announce($('#result-title').textContent ?? '')
}

/**
 * The bank's challenge frame, once the actions package adds it: scrolled into view (on a phone it
 * opens below the fold) and focused, so the shopper can answer at once, keyboard and screen reader too.
 */
function bringIntoView(area: HTMLElement): MutationObserver {
  const observer = new MutationObserver(() => {
    const frame = area.querySelector('iframe')
    if (!frame) return
    observer.disconnect()
    frame.scrollIntoView({ block: 'start' })
    frame.focus()
  })
  observer.observe(area, { childList: true, subtree: true })
  return observer
}

/** Runs actions until the payment has its final result. */
async function follow(result: PaymentResult): Promise<PaymentResult> {
  let current = result
  for (;;) {
    const action = current.action
    if (!action) return current
    const area = $('#threeds')
    const challenge = action.type === 'threeDS2' && action.subtype === 'challenge'
    announce(
      action.type === 'redirect'
        ? 'Taking you to your bank…'
        : challenge
          ? 'Your bank asks you to confirm the payment.'
          : 'Checking your card with your bank…',
    )
    area.hidden = !challenge
    const shown = challenge ? bringIntoView(area) : undefined
    // The shopper's way out when the bank's page cannot load (the step would wait its full timeout).
    const abandon = new AbortController()
    const cancelRow = $('#challenge-cancel')
    cancelRow.hidden = !challenge
    $('#cancel-challenge').onclick = () => abandon.abort()
    const outcome = await handleAction(action, { container: area, signal: abandon.signal }).finally(() => {
      shown?.disconnect()
      area.hidden = true
      cancelRow.hidden = true
    })
    if (outcome.kind === 'redirecting') {
      leftForBank = true
      // A Back that reloads the page (no bfcache) finds the order here and offers it again.
      sessionStorage.setItem(ORDER_AT_BANK, String(order!.id))
      return new Promise<PaymentResult>(() => {}) // the page is leaving
    }
    current = await api<PaymentResult>('/api/payment-details', { orderId: order!.id, details: outcome.details })
  }
}

/** Pays the order with what `choice` makes at submit time: a new card's JWE, or a saved card and its code's. */
async function pay(form: PaymentForm, choice: () => Promise<PaymentChoice>): Promise<void> {
  if (busy) return
  if (!order || !form.validate()) {
    announce('Please correct the highlighted fields.')
    return
  }
  // The Pay button is about to be disabled: focus goes to the status line, not to <body>.
  status.focus()
  setBusy(true, form)
  announce('Processing your payment…')
  try {
    const submission = {
      orderId: order.id,
      reference: order.reference,
      amount: order.amount,
      ...(await choice()),
      browserInfo: collectBrowserInfo(),
    }
    const final = await follow(await api<PaymentResult>('/api/payments', submission))
    form.clear()
    showResult(final.resultCode)
  } catch (error) {
    if (error instanceof CheckoutActionError && error.code === 'ERR_ABORTED') {
      form.clear()
      showResult('Cancelled', 'You stopped the check with your bank; the payment was not made.')
    } else if (error instanceof CardJweError && error.code === 'ERR_CARD_INVALID') {
      form.validate()
      announce('Please correct the highlighted fields.')
    } else {
      form.clear()
      showResult('Error', error instanceof ApiError || error instanceof Error ? error.message : 'Something went wrong.')
    }
  } finally {
    setBusy(false, form)
  }
}

function showOrder(current: PublicOrder): void {
  $('#order-summary').textContent = `Order ${current.reference}: ${formatAmount(current.amount)}`
  $('#pay').textContent = `Pay ${formatAmount(current.amount)}`
}

async function startCheckout(): Promise<void> {
  const items = [...document.querySelectorAll<HTMLInputElement>('#products input')]
    .map((input) => ({ sku: input.name, quantity: Number(input.value) }))
    .filter((item) => item.quantity > 0)
  if (items.length === 0) {
    announce('Choose at least one product.')
    return
  }
  order = await api<PublicOrder>('/api/orders', { items })
  showOrder(order)
  const focus = await offerSavedCards(order, { certificate, pay })
  showSection('checkout')
  focus.focus()
}

async function renderCatalogue(): Promise<void> {
  const products = await api<Array<{ sku: string; name: string; price: number }>>('/api/catalogue')
  const list = $('#products')
  for (const product of products) {
    const row = document.createElement('li')
    const label = document.createElement('label')
    label.htmlFor = `qty-${product.sku}`
    label.textContent = `${product.name} (${formatAmount({ currency: 'EUR', value: product.price })})`
    const quantity = document.createElement('input')
    Object.assign(quantity, {
      id: `qty-${product.sku}`,
      name: product.sku,
      type: 'number',
      min: '0',
      max: '20',
      value: product === products[0] ? '1' : '0',
    })
    row.append(label, quantity)
    list.append(row)
  }
}

/** Back from a redirect method: finish the payment with the redirectResult the bank sent. */
async function finishRedirect(params: URLSearchParams): Promise<void> {
  sessionStorage.removeItem(ORDER_AT_BANK)
  order = await api<PublicOrder>(`/api/orders/${Number(params.get('orderId'))}`)
  showOrder(order)
  history.replaceState(null, '', '/')
  announce('Completing your payment…')
  const final = await follow(
    await api<PaymentResult>('/api/payment-details', { orderId: order.id, details: { redirectResult: params.get('redirectResult') } }),
  )
  showResult(final.resultCode)
}

interface CheckoutConfig {
  certificatePem: string
  checkoutReady: boolean
  /** False when the shop could not reach the payment service for the store's methods. */
  serviceReachable: boolean
  paymentMethods: string[]
}

/** Only the methods the store offers (checkout-payment-methods, through the shop's backend); a plain message when the service is down. */
function showMethods(config: CheckoutConfig): void {
  $('#payment-unavailable').hidden = config.serviceReachable
  $('#card-form').hidden = !config.paymentMethods.includes('scheme')
  $('#ideal-alternative').hidden = !config.paymentMethods.includes('ideal')
  $('#klarna-alternative').hidden = !config.paymentMethods.includes('klarna')
}

/** Back from the bank page, reloaded: the same order, ready to pay another way. */
async function resumeAfterBank(): Promise<boolean> {
  const id = Number(sessionStorage.getItem(ORDER_AT_BANK))
  sessionStorage.removeItem(ORDER_AT_BANK)
  // Only the Back button brings the order back; opening the shop afresh starts a new one.
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined
  if (!id || navigation?.type !== 'back_forward') return false
  const resumed = await api<PublicOrder>(`/api/orders/${id}`).catch(() => undefined)
  if (!resumed || resumed.status === 'authorised') return false
  order = resumed
  showOrder(resumed)
  await offerSavedCards(resumed, { certificate, pay })
  showSection('checkout')
  announce(CAME_BACK)
  return true
}

async function main(): Promise<void> {
  const config = await api<CheckoutConfig>('/api/config')
  if (!config.checkoutReady) {
    // No onboarded store yet: nothing can be paid, so nothing is offered.
    showSection('not-ready')
    document.body.dataset.ready = 'true'
    return
  }
  showMethods(config)
  certificate = await importCertificate(config.certificatePem)
  const input = (id: string) => $<HTMLInputElement>(`#${id}`)
  const error = (id: string) => $(`#${id}-error`)
  const messages = applyLanguage()
  const form = attachCardFields({
    ...(messages ? { messages } : {}),
    fields: {
      number: input('card-number'),
      expiry: input('card-expiry'),
      securityCode: input('card-cvc'),
      holderName: input('card-holder'),
    },
    errors: {
      number: error('card-number'),
      expiry: error('card-expiry'),
      securityCode: error('card-cvc'),
      holderName: error('card-holder'),
    },
    announcer: status,
    securityCodeLabel: $('#card-cvc-label'),
    securityCodeContainer: $('#card-cvc-field'),
    onChange: ({ brand }) => ($('#card-brand').textContent = brand ? BRAND_NAMES[brand] : ''),
  })
  $('#card-form').addEventListener('submit', (event) => {
    event.preventDefault()
    // Encrypted now, at submit, so generationtime is fresh.
    void pay(form, async () => ({ paymentMethod: toPaymentMethod(await encryptCard(form.values(), certificate)), ...storeCardChoice() }))
  })
  // Back from the bank page: the browser may restore this page as it was ("Taking you to your bank").
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted || !leftForBank) return
    leftForBank = false
    setBusy(false, form)
    sessionStorage.removeItem(ORDER_AT_BANK)
    announce(CAME_BACK)
  })
  $('#retry-service').addEventListener('click', () => {
    announce('Trying again…')
    void api<CheckoutConfig>('/api/config')
      .then((again) => {
        showMethods(again)
        announce(
          again.serviceReachable
            ? 'The payment service is back. You can pay now.'
            : 'The payment service still cannot be reached. Try again in a moment.',
        )
        if (again.serviceReachable) $<HTMLInputElement>('#card-number').focus()
      })
      .catch(() => announce('The shop cannot be reached. Try again in a moment.'))
  })
  $('#retry-payment').addEventListener('click', () => {
    form.clear()
    showSection('checkout')
    announce(`Order ${order!.reference}: try another card or method.`)
    savedCardFocus().focus()
  })
  $('#start-checkout').addEventListener(
    'click',
    () => void startCheckout().catch((e: unknown) => showResult('Error', (e as Error).message)),
  )
  // The redirect methods: iDEAL to the bank, klarna to the pay-later provider; the shop's back end
  // adds the order's lines, email and billing address for klarna from its own record.
  const payByRedirect = (type: 'ideal' | 'klarna', leaving: string) => {
    if (!order || busy) return
    setBusy(true, form)
    announce(leaving)
    void api<PaymentResult>('/api/payments', {
      orderId: order.id,
      reference: order.reference,
      amount: order.amount,
      paymentMethod: { type },
    })
      .then(follow)
      .then((final) => showResult(final.resultCode))
      .catch((e: unknown) => showResult('Error', (e as Error).message))
      .finally(() => leftForBank || setBusy(false, form))
  }
  $('#pay-ideal').addEventListener('click', () => payByRedirect('ideal', 'Taking you to your bank…'))
  $('#pay-klarna').addEventListener('click', () => payByRedirect('klarna', 'Taking you to Klarna…'))
  await Promise.all([renderCatalogue(), startShopperSignIn(announce)])
  const params = new URLSearchParams(location.search)
  if (params.has('redirectResult') && params.has('orderId')) await finishRedirect(params)
  else if (!(await resumeAfterBank())) showSection('shop')
  document.body.dataset.ready = 'true'
}

main().catch((error: unknown) => showResult('Error', (error as Error).message))

/**
 * The checkout page, the shop's own part: catalogue and basket, the order, the page's language, the
 * test shopper's sign-in and saved cards, the methods on offer, and the result shown. The payment
 * itself (card fields, encryption, browser data, 3-D Secure, redirects and their return, the
 * shopper's words for each result) is @card-jwe/checkout's, mounted on the card form. Imports only
 * our browser packages; everything else goes through the shop's own back end.
 */
import { BRAND_NAMES } from '@card-jwe/card-fields'
import { mountCheckout, type Checkout, type CheckoutResult } from '@card-jwe/checkout'
import { importCertificate, type EncryptionCertificate } from 'card-jwe'
import { api, ApiError, formatAmount, type PublicOrder } from './api.js'
import { addressAfterReturn, applyLanguage, keepLanguageForReturn } from './language.js'
import { clearSavedCardCode, offerSavedCards, savedCardFocus, setSavedCardsDisabled, storeCardChoice } from './saved-cards.js'
import { startShopperSignIn } from './shopper-sign-in.js'
import { tabMemory } from './browser-memory.js'
import './styles.css'

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!
const input = (id: string) => $<HTMLInputElement>(`#${id}`)
const status = $('#status')
const announce = (text: string) => (status.textContent = text)
const language = applyLanguage()
const { words } = language

let order: PublicOrder | undefined
let checkout: Checkout
let certificate: Promise<EncryptionCertificate> | undefined

/** sessionStorage key: the order whose shopper went to the bank and has not come back through the return URL. */
const ORDER_AT_BANK = 'order-at-bank'
const CARD_INPUTS = ['card-number', 'card-expiry', 'card-cvc', 'card-holder']

/** The shop's own ways to pay, off while a payment is out (the package keeps the card form's Pay and fields off). */
function setBusy(on: boolean): void {
  $<HTMLButtonElement>('#pay-ideal').disabled = on
  $<HTMLButtonElement>('#pay-klarna').disabled = on
  setSavedCardsDisabled(on)
}

function showSection(id: 'shop' | 'checkout' | 'result' | 'not-ready'): void {
  for (const section of ['shop', 'checkout', 'result', 'not-ready']) $(`#${section}`).hidden = section !== id
}

/** The package's result, in the page's language; the status line has said it already. */
function showResult(result: CheckoutResult): void {
  const { kind, message, code } = result
  setBusy(kind === 'paid' || kind === 'pending')
  clearSavedCardCode()
  tabMemory.remember(ORDER_AT_BANK, null)
  // Back from the bank's page (restored as it was): the same order stays on offer, the status says so.
  if (code === 'RETURNED_BACK') return
  $('#result-title').textContent = message
  // The same order (basket, amount, reference) can be paid again after any result but paid or pending.
  $('#retry-payment').hidden = kind === 'paid' || kind === 'pending' || !order
  $('#result-code').textContent = code
  $('#result-order').textContent = order ? words.resultOrder(order.reference, order.id) : ''
  showSection('result')
  $<HTMLHeadingElement>('#result-title').focus()
}

/** What the shop's own calls failing show: nothing was paid. */
const showFailure = (error: unknown) =>
  showResult({
    kind: 'retry',
    message: error instanceof ApiError ? language.messages.failed : language.messages.offline,
    code: error instanceof ApiError ? error.code : 'OFFLINE',
  })

function showOrder(current: PublicOrder): void {
  $('#order-summary').textContent = words.orderSummary(current.reference, formatAmount(current.amount))
  $('#pay').textContent = words.pay(formatAmount(current.amount))
}

/** The saved cards' share of the page: its words, the certificate for a code's JWE, and the checkout's Pay. */
const savedCardHooks = (pem: string) => ({
  language,
  certificate: () => (certificate ??= importCertificate(pem)),
  pay: (paymentMethod: Promise<object>) => void checkout.pay(paymentMethod),
})

async function startCheckout(pem: string): Promise<void> {
  const items = [...document.querySelectorAll<HTMLInputElement>('#products input')]
    .map((quantity) => ({ sku: quantity.name, quantity: Number(quantity.value) }))
    .filter((item) => item.quantity > 0)
  if (items.length === 0) {
    announce(words.chooseProduct)
    return
  }
  order = await api<PublicOrder>('/api/orders', { items })
  showOrder(order)
  const focus = await offerSavedCards(order, savedCardHooks(pem))
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
async function resumeAfterBank(pem: string): Promise<boolean> {
  const id = Number(tabMemory.recall(ORDER_AT_BANK))
  tabMemory.remember(ORDER_AT_BANK, null)
  // Only the Back button brings the order back; opening the shop afresh starts a new one.
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined
  if (!id || navigation?.type !== 'back_forward') return false
  const resumed = await api<PublicOrder>(`/api/orders/${id}`).catch(() => undefined)
  if (!resumed || resumed.status === 'authorised') return false
  order = resumed
  showOrder(resumed)
  await offerSavedCards(resumed, savedCardHooks(pem))
  showSection('checkout')
  announce(language.messages.notFinished)
  return true
}

/** The bank's challenge, once shown: scrolled to the top of the view (on a phone it opens below the fold). */
function scrollChallengeIntoView(area: HTMLElement): void {
  new MutationObserver(() => area.hidden || area.scrollIntoView({ block: 'start' })).observe(area, {
    attributes: true,
    attributeFilter: ['hidden'],
  })
}

function mount(): Checkout {
  const error = (id: string) => $(`#${id}-error`)
  return mountCheckout($<HTMLFormElement>('#card-form'), {
    order: () => order,
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
    actionContainer: $('#threeds'),
    payButton: $<HTMLButtonElement>('#pay'),
    messages: language.messages,
    cardMessages: language.cardMessages,
    storePaymentMethod: storeCardChoice,
    onChange: ({ brand }) => ($('#card-brand').textContent = brand ? BRAND_NAMES[brand] : ''),
    onResult: showResult,
    onEvent(event) {
      if (event.type === 'submit') setBusy(true)
      if (event.type === 'action' && event.detail === 'redirect' && order) {
        // The bank sends the shopper back to an address without the language; a Back may reload this page.
        keepLanguageForReturn(language.tag)
        tabMemory.remember(ORDER_AT_BANK, String(order.id))
      }
    },
  })
}

function wireButtons(pem: string): void {
  $('#cancel-challenge').addEventListener('click', () => checkout.cancel())
  $('#pay-ideal').addEventListener('click', () => void checkout.pay({ type: 'ideal' }))
  // klarna: the shop's back end adds the order's lines, email and billing address from its own record.
  $('#pay-klarna').addEventListener('click', () => void checkout.pay({ type: 'klarna' }))
  $('#retry-service').addEventListener('click', () => {
    announce(words.tryingAgain)
    void api<CheckoutConfig>('/api/config')
      .then((again) => {
        showMethods(again)
        announce(again.serviceReachable ? words.serviceBack : words.serviceStillDown)
        if (again.serviceReachable) input('card-number').focus()
      })
      .catch(() => announce(words.shopUnreachable))
  })
  $('#retry-payment').addEventListener('click', () => {
    // The next attempt starts from empty fields (the package keeps them after an attempt that paid nothing).
    for (const id of CARD_INPUTS) {
      input(id).value = ''
      input(id).dispatchEvent(new Event('input'))
    }
    showSection('checkout')
    announce(words.retryOrder(order!.reference))
    savedCardFocus().focus()
  })
  $('#start-checkout').addEventListener('click', () => void startCheckout(pem).catch(showFailure))
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
  $<HTMLAnchorElement>('#back-to-shop').href = addressAfterReturn(language.tag)
  scrollChallengeIntoView($('#threeds'))
  const params = new URLSearchParams(location.search)
  const returning = params.has('redirectResult') && params.has('orderId')
  if (returning) {
    // Back from a redirect method: the package sends the bank's answer once; the page shows the order.
    tabMemory.remember(ORDER_AT_BANK, null)
    order = await api<PublicOrder>(`/api/orders/${Number(params.get('orderId'))}`)
    showOrder(order)
  }
  checkout = mount()
  if (returning) history.replaceState(null, '', addressAfterReturn(language.tag))
  wireButtons(config.certificatePem)
  await Promise.all([renderCatalogue(), startShopperSignIn(announce, words)])
  if (!returning && !(await resumeAfterBank(config.certificatePem))) showSection('shop')
  document.body.dataset.ready = 'true'
}

main().catch(showFailure)

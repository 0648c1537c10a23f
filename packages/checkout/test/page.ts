/**
 * A shop's checkout markup for the browser tests, the test shop's order, and a mounted checkout
 * whose results and events the test reads in turn.
 */
import { inject } from 'vitest'
import { userEvent } from 'vitest/browser'
import {
  mountCheckout,
  type Checkout,
  type CheckoutEvent,
  type CheckoutOptions,
  type CheckoutOrder,
  type CheckoutResult,
} from '../src/index.js'
import type { TypedCard } from './support/global-setup.ts'
import { messages as EN } from '../src/locales/en.ts'
import { messages as CARD_EN } from '@card-jwe/card-fields/locales/en'

export const shop = inject('checkoutShop')

const MARKUP = `
<form id="pay-form" novalidate>
  <label for="number">Card number</label><input id="number" inputmode="numeric" autocomplete="cc-number">
  <span id="number-error"></span>
  <label for="expiry">Expiry date (MM/YY)</label><input id="expiry" autocomplete="cc-exp"><span id="expiry-error"></span>
  <span id="cvc-field"><label id="cvc-label" for="cvc">Security code</label><input id="cvc" autocomplete="cc-csc"></span>
  <span id="cvc-error"></span>
  <button type="submit" id="pay">Pay</button>
</form>
<div id="bank" hidden></div>
<p id="status" role="status" tabindex="-1"></p>`

export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T

/**
 * A new order at the test shop, made from this page (its shopper comes back to this origin, or to
 * `returnOrigin`); `shopper`: a signed-in shopper's.
 */
export async function newOrder(value = 1450, shopper: boolean | string = false, returnOrigin?: string): Promise<CheckoutOrder> {
  const response = await fetch(`${shop.url}/test/orders`, { method: 'POST', body: JSON.stringify({ value, shopper, returnOrigin }) })
  return (await response.json()) as CheckoutOrder
}

/** How many requests each checkout path of the shop has had (POSTs). */
export async function calls(): Promise<Record<string, number>> {
  return (await (await fetch(`${shop.url}/test/calls`)).json()) as Record<string, number>
}

export interface Mounted {
  readonly checkout: Checkout
  readonly events: CheckoutEvent[]
  readonly results: CheckoutResult[]
  /** The next result `onResult` gets. */
  nextResult(): Promise<CheckoutResult>
  readonly pay: HTMLButtonElement
}

/**
 * The markup in a fresh body, the checkout mounted on it. `payOutsideForm`: Pay after the form (tied
 * to it by its `form` attribute, as in a sticky footer) and given to the checkout as `payButton`.
 */
export function mount(options: Partial<CheckoutOptions> = {}, { payOutsideForm = false } = {}): Mounted {
  document.body.innerHTML = MARKUP
  const pay = $<HTMLButtonElement>('pay')
  if (payOutsideForm) {
    pay.setAttribute('form', 'pay-form')
    $('pay-form').after(pay)
  }
  const events: CheckoutEvent[] = []
  const results: CheckoutResult[] = []
  const waiting: Array<(result: CheckoutResult) => void> = []
  let read = 0
  const checkout = mountCheckout($<HTMLFormElement>('pay-form'), {
    fields: { number: $('number'), expiry: $('expiry'), securityCode: $('cvc') },
    errors: { number: $('number-error'), expiry: $('expiry-error'), securityCode: $('cvc-error') },
    announcer: $('status'),
    securityCodeLabel: $('cvc-label'),
    securityCodeContainer: $('cvc-field'),
    actionContainer: $('bank'),
    messages: EN,
    cardMessages: CARD_EN,
    baseUrl: shop.url,
    url: `${location.origin}/`,
    onEvent: (event) => events.push(event),
    onResult: (result) => {
      results.push(result)
      waiting.shift()?.(result)
    },
    ...(payOutsideForm && { payButton: pay }),
    ...options,
  })
  return {
    checkout,
    events,
    results,
    pay,
    nextResult: () =>
      results.length > read
        ? Promise.resolve(results[read++]!)
        : new Promise((resolve) =>
            waiting.push((result) => {
              read++
              resolve(result)
            }),
          ),
  }
}

/** Types the card as a shopper does. */
export async function typeCard(card: TypedCard): Promise<void> {
  await userEvent.type($('number'), card.number)
  await userEvent.type($('expiry'), card.expiry.replace('/', ''))
  if (card.securityCode) await userEvent.type($('cvc'), card.securityCode)
}

/** Pay as a keyboard shopper presses it (the runners of Firefox and WebKit click no element by locator). */
export async function pressPay(page: Mounted): Promise<void> {
  page.pay.focus()
  await userEvent.keyboard('{Enter}')
}

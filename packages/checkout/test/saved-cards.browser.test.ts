/**
 * Saved cards on the checkout's form in real browsers, against the real shop back end and sandbox:
 * the shopper's cards offered from the back end's config as clones of the shop's own template, one
 * chosen, only its code typed, the code alone encrypted at Pay and paid through the checkout's flow.
 */
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { userEvent } from 'vitest/browser'
import { messages as CARD_EN } from '@card-jwe/card-fields/locales/en'
import { messages as EN } from '../src/locales/en.js'
import { mountSavedCards, type SavedCards } from '../src/saved-cards/index.js'
import { $, calls, mount, type Mounted, newOrder, pressPay, shop, typeCard } from './page.ts'

/** The shop's saved-card markup, added to the checkout's form: its words around the card's details. */
const SAVED_CARD_MARKUP = `
<fieldset id="choices"><legend>Pay with</legend>
  <label><input type="radio" name="card" id="new-card"> A new card</label>
</fieldset>
<template id="choice"><label><input type="radio" name="card"> <span data-card="brand"></span> ending in
  <span data-card="last-four"></span>, expires <span data-card="expiry"></span></label></template>
<div id="code-form" hidden>
  <span id="saved-cvc-field"><label id="saved-cvc-label" for="saved-cvc">Security code</label><input id="saved-cvc"></span>
  <span id="saved-cvc-error"></span>
</div>`

let saved: SavedCards | undefined
let page: Mounted | undefined
afterEach(() => {
  saved?.destroy()
  page?.checkout.destroy()
  saved = page = undefined
})

/** The checkout mounted for `order`, with the saved cards beside its card form. */
function mountWithSavedCards(order: Awaited<ReturnType<typeof newOrder>>, { payOutsideForm = false } = {}) {
  page = mount({ order }, { payOutsideForm })
  const form = $<HTMLFormElement>('pay-form')
  const cardForm = document.createElement('div')
  cardForm.id = 'card-form'
  cardForm.append(...[...form.children].filter((child) => child.tagName !== 'BUTTON'))
  form.prepend(cardForm)
  cardForm.insertAdjacentHTML('beforebegin', SAVED_CARD_MARKUP)
  saved = mountSavedCards(form, page.checkout, {
    list: $('choices'),
    template: $<HTMLTemplateElement>('choice'),
    newCard: $<HTMLInputElement>('new-card'),
    cardForm,
    codeForm: $('code-form'),
    securityCode: $<HTMLInputElement>('saved-cvc'),
    error: $('saved-cvc-error'),
    securityCodeLabel: $('saved-cvc-label'),
    securityCodeContainer: $('saved-cvc-field'),
    announcer: $('status'),
    messages: EN,
    cardMessages: CARD_EN,
    baseUrl: shop.url,
    ...(payOutsideForm && { payButton: page.pay }),
  })
  return { page, saved, cardForm }
}

/** The bodies the page posts to the back end's payments route, read as they leave. */
function paymentBodies(): Array<Record<string, unknown>> {
  const bodies: Array<Record<string, unknown>> = []
  const original = window.fetch
  window.fetch = (input, init) => {
    if (String(input).endsWith('/api/payments') && typeof init?.body === 'string') bodies.push(JSON.parse(init.body))
    return original(input, init)
  }
  onTestFinished(() => {
    window.fetch = original
  })
  return bodies
}

/** A shopper with one saved Visa: paid once with "Save my card" ticked. */
async function shopperWithSavedCard(shopper: string): Promise<void> {
  const first = mount({ order: await newOrder(1450, shopper), storePaymentMethod: () => true })
  await typeCard(shop.cards.frictionless)
  await pressPay(first)
  expect(await first.nextResult()).toMatchObject({ kind: 'paid' })
  first.checkout.destroy()
}

describe('mountSavedCards', () => {
  it.each([
    { where: 'in the form', payOutsideForm: false },
    { where: 'outside the form (the checkout’s payButton)', payOutsideForm: true },
  ])(
    'offers the shopper’s saved card in the shop’s words, and pays it with only the code typed: Pay $where',
    async ({ payOutsideForm }) => {
      const shopper = `saver-${Date.now()}`
      await shopperWithSavedCard(shopper)
      const bodies = paymentBodies()
      const order = await newOrder(2000, shopper)
      const { page, saved, cardForm } = mountWithSavedCards(order, { payOutsideForm })
      expect(page.pay.form).toBe($('pay-form'))
      expect(await page.checkout.ready).toBe(true)
      const first = await saved.offer(order.id)
      expect(first.checked).toBe(true)
      const { number, expiry } = shop.cards.frictionless
      const label = first.closest('label')!.textContent!.replace(/\s+/g, ' ').trim()
      expect(label).toBe(`Visa ending in ${number.slice(-4)}, expires ${expiry.replace(/\/(\d\d)$/, '/20$1')}`)
      expect(cardForm.hidden).toBe(true)
      expect($('code-form').hidden).toBe(false)
      expect($('saved-cvc-label').textContent).toBe('Security code (CVV, 3 digits)')
      await userEvent.type($('saved-cvc'), shop.cards.frictionless.securityCode)
      const before = (await calls())['/api/payments'] ?? 0
      await pressPay(page)
      expect(await page.nextResult()).toEqual({ kind: 'paid', message: EN.paid, code: 'Authorised' })
      expect((await calls())['/api/payments']).toBe(before + 1)
      const paymentMethod = bodies.at(-1)!.paymentMethod as Record<string, unknown>
      expect(Object.keys(paymentMethod).sort()).toEqual(['jwe', 'storedPaymentMethodId', 'type'])
      expect(paymentMethod.storedPaymentMethodId).toBe(saved.chosen())
      expect(String(paymentMethod.jwe).split('.')).toHaveLength(5)
      // Paid: Pay, the choices and the code stay off.
      expect(page.pay.disabled).toBe(true)
      expect(first.disabled).toBe(true)
    },
  )

  it('shows the code’s error at Pay and sends nothing; "A new card" pays with the card form, the choices off', async () => {
    const shopper = `fixer-${Date.now()}`
    await shopperWithSavedCard(shopper)
    const order = await newOrder(2100, shopper)
    const { page, saved, cardForm } = mountWithSavedCards(order)
    const savedChoice = await saved.offer(order.id)
    const before = (await calls())['/api/payments'] ?? 0
    await pressPay(page)
    expect($('saved-cvc-error').textContent).toBe(CARD_EN.errors.securityCode.required)
    expect(document.activeElement).toBe($('saved-cvc'))
    expect($('status').textContent).toBe(EN.fix)
    expect((await calls())['/api/payments'] ?? 0).toBe(before)
    expect(page.pay.disabled).toBe(false)
    // The hidden card form was not judged: no error on it, no `invalid` event for it.
    expect($('number-error').textContent).toBe('')
    expect(page.events.map((event) => event.type)).not.toContain('invalid')

    // Chosen as a keyboard shopper does (the runners of Firefox and WebKit click no element by locator).
    $('new-card').focus()
    await userEvent.keyboard(' ')
    expect(saved.chosen()).toBeUndefined()
    expect(cardForm.hidden).toBe(false)
    expect($('code-form').hidden).toBe(true)
    await typeCard(shop.cards.frictionless)
    await pressPay(page)
    // The new card's payment is the checkout's: the saved choices follow Pay, off while it is out and once paid.
    expect(page.pay.disabled).toBe(true)
    await expect.poll(() => savedChoice.disabled).toBe(true)
    expect(await page.nextResult()).toMatchObject({ kind: 'paid' })
    expect((await calls())['/api/payments']).toBe(before + 1)
    expect(savedChoice.disabled).toBe(true)
    expect($<HTMLInputElement>('new-card').disabled).toBe(true)
  })

  it.each([
    { first: 'the saved cards', savedFirst: true },
    { first: 'the checkout', savedFirst: false },
  ])('destroyed after a payment, $first first: the shop’s "new card" radio and code input are given back', async ({ savedFirst }) => {
    const shopper = `leaver-${Date.now()}`
    await shopperWithSavedCard(shopper)
    const order = await newOrder(2300, shopper)
    const mounted = mountWithSavedCards(order)
    await mounted.saved.offer(order.id)
    await userEvent.type($('saved-cvc'), shop.cards.frictionless.securityCode)
    await pressPay(mounted.page)
    expect(await mounted.page.nextResult()).toMatchObject({ kind: 'paid' })
    expect($<HTMLInputElement>('new-card').disabled).toBe(true)
    // As a page leaving the order does: both taken down, the form left for the next mount.
    if (savedFirst) mounted.saved.destroy()
    mounted.page.checkout.destroy()
    if (!savedFirst) mounted.saved.destroy()
    saved = page = undefined
    expect($<HTMLInputElement>('new-card').disabled).toBe(false)
    expect($<HTMLInputElement>('saved-cvc').disabled).toBe(false)
    expect(mounted.page.pay.disabled).toBe(false)
  })

  it('offers nothing to a shopper without saved cards: "A new card" chosen, the card form shown', async () => {
    const order = await newOrder(2200, `newcomer-${Date.now()}`)
    const { saved, cardForm } = mountWithSavedCards(order)
    expect(await saved.offer(order.id)).toBe($('new-card'))
    expect($<HTMLInputElement>('new-card').checked).toBe(true)
    expect(document.querySelectorAll('#choices input[type=radio]')).toHaveLength(1)
    expect(cardForm.hidden).toBe(false)
    expect($('code-form').hidden).toBe(true)
  })
})

/**
 * Saved cards on the checkout. A signed-in shopper's cards come first (the shop's
 * /api/config?orderId=: the server knows the shopper, the page never names one), paid with the
 * security code alone (card-fields' saved-card mode, card-jwe's code-only JWE) through the mounted
 * checkout's `pay`; "A new card" shows the card form, where "Save my card" is offered for a
 * signed-in shopper's order. checkout.ts calls `offerSavedCards` for each order it shows.
 */
import { attachSavedCardCode, type SavedCardCode } from '@card-jwe/card-fields/saved-card-code'
import { encryptSecurityCode, toSavedCardPaymentMethod, type EncryptionCertificate } from 'card-jwe'
import { api, formatAmount, type PublicOrder } from './api.js'
import type { PageLanguage } from './language.js'
import { describeSavedCard, type SavedCardChoice } from './saved-card-label.js'

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!

/** What checkout.ts lends: the page's language, the certificate, and the mounted checkout's one way to pay. */
export interface SavedCardHooks {
  readonly language: PageLanguage
  certificate(): Promise<EncryptionCertificate>
  pay(paymentMethod: Promise<object>): void
}

let code: SavedCardCode | undefined
let chosen: SavedCardChoice | undefined
let wired = false
/** The card form is hidden by a saved card's choice (not by the methods on offer, checkout.ts's business). */
let cardFormHiddenHere = false

/** One saved card chosen (its code field set up for its brand), or the new card's form (`card` undefined). */
function choose(card: SavedCardChoice | undefined, hooks: SavedCardHooks): void {
  code?.destroy()
  code = undefined
  chosen = card
  $('#saved-card-pay').hidden = card === undefined
  // Shown again only if a saved card hid it: the service being down hides it too.
  if (card !== undefined || cardFormHiddenHere) $('#card-form').hidden = card !== undefined
  cardFormHiddenHere = card !== undefined
  if (!card) return
  code = attachSavedCardCode({
    brand: card.brand ?? '',
    securityCode: $<HTMLInputElement>('#saved-card-cvc'),
    error: $('#saved-card-cvc-error'),
    announcer: $('#status'),
    securityCodeLabel: $('#saved-card-cvc-label'),
    securityCodeContainer: $('#saved-card-cvc-field'),
    messages: hooks.language.cardMessages,
  })
}

function radio(id: string, label: string, onChoose: () => void, lastFour?: string): HTMLLabelElement {
  const input = Object.assign(document.createElement('input'), { type: 'radio', name: 'saved-card', id })
  if (lastFour) input.dataset.lastFour = lastFour
  input.addEventListener('change', () => input.checked && onChoose())
  const row = Object.assign(document.createElement('label'), { className: 'check', htmlFor: id })
  row.append(input, ` ${label}`)
  return row
}

/** While a payment is out: the code field, the radios and the saved card's Pay off; back on after a result. */
export function setSavedCardsDisabled(disabled: boolean): void {
  code?.setDisabled(disabled)
  $<HTMLButtonElement>('#pay-saved').disabled = disabled
  for (const input of document.querySelectorAll<HTMLInputElement>('input[name="saved-card"]')) input.disabled = disabled
}

/** Empties the saved card's code after a result, as the package empties the card form. */
export function clearSavedCardCode(): void {
  code?.clear()
}

/**
 * Offers the order's saved cards, the first one chosen, with "A new card" last; without saved cards
 * only the card form. "Save my card" shows for a signed-in shopper's order. Answers what to focus.
 */
export async function offerSavedCards(order: PublicOrder, hooks: SavedCardHooks): Promise<HTMLElement> {
  $('#save-card-field').hidden = !order.signedIn
  $<HTMLInputElement>('#save-card').checked = false
  // A guest has no saved cards: no second config call (which waits for the service) before the form shows.
  const config = order.signedIn ? await api<{ savedCards?: SavedCardChoice[] }>(`/api/config?orderId=${encodeURIComponent(order.id)}`) : {}
  const cards = config.savedCards ?? []
  $('#saved-card-form').hidden = cards.length === 0
  if (!wired) {
    wired = true
    $('#saved-card-form').addEventListener('submit', (event) => {
      event.preventDefault()
      const card = chosen
      if (!card || !code) return
      if (!code.validate()) {
        $('#status').textContent = hooks.language.messages.fix
        return
      }
      const values = code.values()
      // Encrypted now, at submit, so generationtime is fresh; a brand without a code pays with the id alone.
      const jwe = code.needsCode ? hooks.certificate().then((key) => encryptSecurityCode(values, key)) : Promise.resolve(undefined)
      hooks.pay(jwe.then((encrypted) => toSavedCardPaymentMethod(card.id, encrypted)))
    })
  }
  if (cards.length === 0) {
    choose(undefined, hooks)
    return $('#card-number')
  }
  const { words } = hooks.language
  $('#pay-saved').textContent = words.pay(formatAmount(order.amount))
  $('#saved-card-list').replaceChildren(
    ...cards.map((card, i) => radio(`saved-card-${i}`, describeSavedCard(card, words.savedCard), () => choose(card, hooks), card.lastFour)),
    radio('saved-card-new', words.newCard, () => choose(undefined, hooks)),
  )
  $<HTMLInputElement>('#saved-card-0').checked = true
  choose(cards[0], hooks)
  return $('#saved-card-0')
}

/** Where the checkout's focus goes when the shopper tries again: the chosen saved card's code, else the card number. */
export function savedCardFocus(): HTMLElement {
  return chosen && code?.needsCode ? $('#saved-card-cvc') : $('#card-number')
}

/** The new card's `storePaymentMethod`: asked only of a signed-in shopper; the shop saves it only for one. */
export function storeCardChoice(): boolean {
  return !$('#save-card-field').hidden && $<HTMLInputElement>('#save-card').checked
}

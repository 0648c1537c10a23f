/**
 * Saved cards on the checkout. A signed-in shopper's cards come first (the shop's
 * /api/config?orderId=: the server knows the shopper, the page never names one), paid with the
 * security code alone (card-fields' saved-card mode, card-jwe's code-only JWE); "A new card" shows
 * the card form, where "Save my card" is offered for a signed-in shopper's order. checkout.ts calls
 * `offerSavedCards` for each order it shows and adds `storeCardChoice` to a new card's submission.
 */
import { attachSavedCardCode, type SavedCardCode } from '@card-jwe/card-fields'
import { encryptSecurityCode, toSavedCardPaymentMethod, type EncryptionCertificate } from 'card-jwe'
import { api, formatAmount, type PublicOrder } from './api.js'
import { describeSavedCard, type SavedCardChoice } from './saved-card-label.js'

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!

/** What a payment is made with on the checkout: the card form, or a saved card's code. */
export interface PaymentForm {
  validate(): boolean
  clear(): void
  setDisabled(disabled: boolean): void
}

/** The page's part of a submission: how it pays, and whether the card is to be saved. */
export interface PaymentChoice {
  readonly paymentMethod: unknown
  readonly storePaymentMethod?: boolean
}

/** What checkout.ts lends: the certificate, and its one way to pay (busy state, 3-D Secure, result). */
export interface SavedCardHooks {
  readonly certificate: EncryptionCertificate
  pay(form: PaymentForm, choice: () => Promise<PaymentChoice>): Promise<void>
}

let code: SavedCardCode | undefined
let chosen: SavedCardChoice | undefined
let wired = false
/** The card form is hidden by a saved card's choice (not by the methods on offer, checkout.ts's business). */
let cardFormHiddenHere = false

/** The saved card's code field, radios and Pay as one form for checkout.ts's busy state. */
const savedCardForm: PaymentForm = {
  validate: () => code?.validate() ?? false,
  clear: () => code?.clear(),
  setDisabled(disabled) {
    code?.setDisabled(disabled)
    $<HTMLButtonElement>('#pay-saved').disabled = disabled
    for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="saved-card"]')) radio.disabled = disabled
  },
}

/** One saved card chosen (its code field set up for its brand), or the new card's form (`card` undefined). */
function choose(card: SavedCardChoice | undefined): void {
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
      const needsCode = code.needsCode
      const values = code.values()
      void hooks.pay(savedCardForm, async () => ({
        // Encrypted now, at submit, so generationtime is fresh; a brand without a code pays with the id alone.
        paymentMethod: toSavedCardPaymentMethod(card.id, needsCode ? await encryptSecurityCode(values, hooks.certificate) : undefined),
      }))
    })
  }
  if (cards.length === 0) {
    choose(undefined)
    return $('#card-number')
  }
  $('#pay-saved').textContent = `Pay ${formatAmount(order.amount)}`
  $('#saved-card-list').replaceChildren(
    ...cards.map((card, i) => radio(`saved-card-${i}`, describeSavedCard(card), () => choose(card), card.lastFour)),
    radio('saved-card-new', 'A new card', () => choose(undefined)),
  )
  $<HTMLInputElement>('#saved-card-0').checked = true
  choose(cards[0])
  return $('#saved-card-0')
}

/** Where the checkout's focus goes when the shopper tries again: the chosen saved card's code, else the card number. */
export function savedCardFocus(): HTMLElement {
  return chosen && code?.needsCode ? $('#saved-card-cvc') : $('#card-number')
}

/** The new card's `storePaymentMethod`: asked only of a signed-in shopper; the shop saves it only for one. */
export function storeCardChoice(): { storePaymentMethod?: true } {
  return !$('#save-card-field').hidden && $<HTMLInputElement>('#save-card').checked ? { storePaymentMethod: true } : {}
}

import { BRAND_NAMES, type CardFieldMessages } from '@card-jwe/card-fields'
import { attachSavedCardCode, type SavedCardCode } from '@card-jwe/card-fields/saved-card-code'
import { encryptSecurityCode, importCertificate, savedCardBrand, toSavedCardPaymentMethod, type EncryptionCertificate } from 'card-jwe'
import { request } from '../lib/request.js'
import type { CheckoutMessages } from '../messages.js'
import type { Checkout } from '../types.js'

/** A saved card as the back end's config lists it (`savedCards`): its id and what tells it apart, never the holder's name. */
export type SavedCardChoice = {
  /** The service's `storedPaymentMethodId`. */
  readonly id: string
} & Partial<Readonly<Record<'brand' | 'lastFour' | 'expiryMonth' | 'expiryYear', string>>>

/** Options of {@link mountSavedCards}: the shop's own elements, and the page's words. */
export interface SavedCardsOptions {
  /** Where the saved cards go, one clone of `template` each, before what the shop already has there ("A new card"). */
  readonly list: HTMLElement
  /**
   * One choice, as the shop writes it in its page's language: a radio input (the same `name` as
   * `newCard`) and elements marked `data-card="brand"`, `"last-four"` and `"expiry"` that get the
   * card's details, for example `<label><input type="radio" name="card"> <span data-card="brand"></span>
   * ending in <span data-card="last-four"></span>, expires <span data-card="expiry"></span></label>`.
   */
  readonly template: HTMLTemplateElement
  /** The shop's "A new card" radio: chosen, the card form pays. */
  readonly newCard: HTMLInputElement
  /** The new card's inputs, hidden while a saved card is chosen. */
  readonly cardForm: HTMLElement
  /** The saved card's code field with its label and error, shown while a saved card is chosen. */
  readonly codeForm: HTMLElement
  /** The saved card's security-code input (card-fields' `attachSavedCardCode`). */
  readonly securityCode: HTMLInputElement
  /** The shop's element for the code's error. */
  readonly error?: HTMLElement
  /** The code's label, whose text follows the saved card's brand. */
  readonly securityCodeLabel?: HTMLElement
  /** Hidden for a brand whose cards have no code (Bancontact). */
  readonly securityCodeContainer?: HTMLElement
  /** The shop's polite live region (the checkout's `announcer`). */
  readonly announcer?: HTMLElement
  /** The flow's words, the checkout's own: `fix` is said when the code is in error at Pay. */
  readonly messages: CheckoutMessages
  /** card-fields' words for the same language, for the code field. */
  readonly cardMessages: CardFieldMessages
  /** Where the shop back end is mounted; default the page's own origin (`''`). */
  readonly baseUrl?: string
  /** The Pay button given to the checkout as `payButton` (one outside `form`); default the form's submit button. */
  readonly payButton?: HTMLButtonElement
}

/** The mounted saved cards. */
export interface SavedCards {
  /**
   * Offers the order's saved cards, read from the back end's config for it (a signed-in shopper's
   * order), the first one chosen; none, the new card's form. Resolves with the choice to focus.
   */
  offer(orderId: string | number): Promise<HTMLInputElement>
  /** The chosen saved card's id; undefined while "A new card" is chosen. */
  chosen(): string | undefined
  /** Removes the choices, the listeners and what card-fields added; the shop's elements stay, enabled. */
  destroy(): void
}

/**
 * Saved cards on the checkout's form: the shopper picks one of the shop's radio choices and types
 * only its code; at Pay the code alone is encrypted (card-jwe's `encryptSecurityCode`) and paid
 * through `checkout.pay`, with its 3-D Secure and results. "A new card" leaves Pay to the card form.
 * Adds no elements but clones of the shop's template.
 */
export function mountSavedCards(form: HTMLFormElement, checkout: Checkout, options: SavedCardsOptions): SavedCards {
  const { list, newCard, cardForm, codeForm, baseUrl = '' } = options
  // As the checkout finds it: Pay's state is the flow's (off while a payment is out, and once paid).
  const payButton = options.payButton ?? form.querySelector<HTMLButtonElement>('[type=submit]')
  const choices: HTMLElement[] = []
  let certificate: Promise<EncryptionCertificate> | undefined
  let chosen: SavedCardChoice | undefined
  let code: SavedCardCode | undefined

  const radios = () => [newCard, ...choices.map((row) => row.querySelector<HTMLInputElement>('input[type=radio]')!)]
  const setDisabled = (disabled: boolean) => {
    for (const radio of radios()) radio.disabled = disabled
    code?.setDisabled(disabled)
  }
  function choose(card: SavedCardChoice | undefined): void {
    code?.destroy()
    code = undefined
    chosen = card
    cardForm.hidden = card !== undefined
    codeForm.hidden = card === undefined
    if (!card) return
    code = attachSavedCardCode({
      brand: card.brand ?? '',
      securityCode: options.securityCode,
      messages: options.cardMessages,
      ...(options.error && { error: options.error }),
      ...(options.securityCodeLabel && { securityCodeLabel: options.securityCodeLabel }),
      ...(options.securityCodeContainer && { securityCodeContainer: options.securityCodeContainer }),
      ...(options.announcer && { announcer: options.announcer }),
    })
  }
  function choiceOf(card: SavedCardChoice): HTMLElement {
    const row = options.template.content.firstElementChild!.cloneNode(true) as HTMLElement
    const known = card.brand ? savedCardBrand(card.brand) : null
    const details = {
      brand: known ? BRAND_NAMES[known.type] : (card.brand ?? ''),
      'last-four': card.lastFour ?? '',
      expiry: card.expiryMonth && card.expiryYear ? `${card.expiryMonth}/${card.expiryYear}` : '',
    }
    for (const element of row.querySelectorAll<HTMLElement>('[data-card]'))
      element.textContent = details[element.dataset.card as keyof typeof details] ?? ''
    const radio = row.querySelector<HTMLInputElement>('input[type=radio]')!
    radio.value = card.id
    radio.addEventListener('change', () => radio.checked && choose(card))
    return row
  }
  const onNewCard = () => newCard.checked && choose(undefined)
  let paying = false
  // Capture: before the checkout's own submit listener, which pays with the card form.
  const onSubmit = (event: Event) => {
    if (!chosen || !code) return
    event.preventDefault()
    event.stopImmediatePropagation()
    if (paying || payButton?.disabled) return
    if (!code.validate()) {
      if (options.announcer) options.announcer.textContent = options.messages.fix
      return
    }
    const { id } = chosen
    const values = code.values()
    // Encrypted now, at Pay, so its generationtime is fresh; a brand without a code pays with the id alone.
    const method = code.needsCode
      ? certificate!.then((key) => encryptSecurityCode(values, key)).then((jwe) => toSavedCardPaymentMethod(id, jwe))
      : toSavedCardPaymentMethod(id)
    paying = true
    void checkout.pay(method).then(() => {
      paying = false
      code?.clear()
    })
  }
  // Pay's state is the checkout's, whoever changed it (a new card's payment, a return from the bank): the choices follow it.
  const followPay = () => setDisabled(payButton?.disabled ?? false)
  const payWatch = new MutationObserver(followPay)
  if (payButton) payWatch.observe(payButton, { attributeFilter: ['disabled'] })
  newCard.addEventListener('change', onNewCard)
  form.addEventListener('submit', onSubmit, { capture: true })

  return {
    async offer(orderId) {
      const config = await request<{ certificatePem: string; savedCards?: SavedCardChoice[] }>(
        `${baseUrl}/api/config?orderId=${encodeURIComponent(String(orderId))}`,
      )
      for (const row of choices.splice(0)) row.remove()
      const cards = config.savedCards ?? []
      // Imported now, not at Pay, as the checkout does for the card form.
      if (cards.length > 0) certificate = importCertificate(config.certificatePem)
      choices.push(...cards.map(choiceOf))
      list.prepend(...choices)
      const first = choices[0]?.querySelector<HTMLInputElement>('input[type=radio]')
      const pick = first ?? newCard
      pick.checked = true
      choose(first ? cards[0] : undefined)
      followPay() // the new choices and code field, as Pay is now
      return pick
    },
    chosen: () => chosen?.id,
    destroy() {
      // The shop's radio and code input back as found: Pay's watcher goes, and may have turned them off.
      setDisabled(false)
      payWatch.disconnect()
      form.removeEventListener('submit', onSubmit, { capture: true })
      newCard.removeEventListener('change', onNewCard)
      code?.destroy()
      for (const row of choices.splice(0)) row.remove()
    },
  }
}

import type { CardFieldChange, CardFieldMessages, CardFieldInputs, CardFieldName } from '@card-jwe/card-fields'
import type { CheckoutMessages } from './messages.js'

/** The shop's order as its own back end gave it: `findOrder` on the server holds the truth, the page sends a copy. */
export interface CheckoutOrder {
  /** The order's id, as the shop's `findOrder` knows it. */
  readonly id: string | number
  /** The shop's reference of the order. */
  readonly reference: string
  /** The amount to pay. */
  readonly amount: CheckoutAmount
}

/** An amount as the checkout API carries it. */
export interface CheckoutAmount {
  /** ISO 4217 code (`EUR`). */
  readonly currency: string
  /** In minor units (1450 for EUR 14.50). */
  readonly value: number
}

/** Options of {@link mountCheckout}. */
export interface CheckoutOptions {
  /** The order to pay, or a function that gives it at Pay (a basket that changes). Not needed on a return page. */
  readonly order?: CheckoutOrder | (() => CheckoutOrder | undefined)
  /** The shop's card inputs (card-fields attaches to them). */
  readonly fields: CardFieldInputs
  /** The shop's element for each field's error. */
  readonly errors?: Partial<Record<CardFieldName, HTMLElement>>
  /** The shop's polite live region: each step ("Processing your payment…") and the result are said there. */
  readonly announcer?: HTMLElement
  /** The security code's label, whose text follows the brand. */
  readonly securityCodeLabel?: HTMLElement
  /** Hidden while the number's brand has no security code. */
  readonly securityCodeContainer?: HTMLElement
  /** The shop's element the bank's 3-D Secure frames go into; shown only during a challenge. */
  readonly actionContainer: HTMLElement
  /** The Pay button; default the form's first submit button. Disabled while a payment is out. */
  readonly payButton?: HTMLButtonElement
  /**
   * The flow's words: a locale's `messages` (`@card-jwe/checkout/locales/<tag>`; English is
   * `locales/en`), with any of the shop's own over them. Required, so a page ships one language only.
   */
  readonly messages: CheckoutMessages
  /** card-fields' words for the same language: `@card-jwe/card-fields/locales/<tag>` (changed with `mergeMessages` if you like). */
  readonly cardMessages: CardFieldMessages
  /** Where the shop back end is mounted; default the page's own origin (`''`). */
  readonly baseUrl?: string
  /** The page's address, read for `orderId` and `redirectResult` on a return; default `location.href`. */
  readonly url?: string
  /**
   * Asked at the card form's Pay, its answer sent as `storePaymentMethod`: true ("Save my card"
   * ticked) has the back end save the card for the order's shopper. Not asked for {@link Checkout.pay}'s methods.
   */
  readonly storePaymentMethod?: () => boolean
  /** Called with each result to show; Pay is given back with every one but `paid` and `pending`. */
  readonly onResult: (result: CheckoutResult) => void
  /** Called as the shopper types (card-fields' `onChange`): verdicts and the brand, never a value; the shop may show the brand's name. */
  readonly onChange?: (change: CardFieldChange) => void
  /** Called at each step, for the shop's analytics: kinds and codes, never card data. */
  readonly onEvent?: (event: CheckoutEvent) => void
}

/**
 * What the shop shows: `paid`; `refused` by the bank (another card may do); `retry` (nothing was
 * paid, Pay is back: `code` says why); `pending` (the outcome comes later, the order is never
 * charged twice). `message` is in the shopper's words.
 */
export interface CheckoutResult {
  /** The kind of result. */
  readonly kind: 'paid' | 'refused' | 'retry' | 'pending'
  /** What the shopper reads. */
  readonly message: string
  /** The service's resultCode, or the back end's error code (`SERVICE_UNREACHABLE`), or `OFFLINE`. */
  readonly code: string
}

/** A step of the flow for analytics; no field of it ever holds card data. */
export interface CheckoutEvent {
  /** `ready` (config loaded), `invalid` (fields in error at Pay), `submit`, `action` (3-D Secure or redirect), `result`. */
  readonly type: 'ready' | 'invalid' | 'submit' | 'action' | 'result'
  /** The action's type (`threeDS2`, `redirect`), the result's kind, or the payment method's type at submit. */
  readonly detail?: string
  /** The result's code. */
  readonly code?: string
}

/** The mounted checkout. */
export interface Checkout {
  /**
   * True once the checkout config is loaded and its certificate imported; false when the shop says
   * payment is not possible now (the next Pay asks again).
   */
  readonly ready: Promise<boolean>
  /**
   * Pays with another method through the same flow: a redirect method (`{ type: 'ideal' }`) or a
   * saved card's (card-jwe's `toSavedCardPaymentMethod`). The card form's Pay calls it with the card's.
   */
  pay(paymentMethod: object | Promise<object>): Promise<void>
  /**
   * Ends the 3-D Secure step under way (a Cancel beside the challenge, for a bank page that does not
   * load): nothing is paid, and the result is `retry` with code `ERR_ABORTED`. Does nothing between steps.
   */
  cancel(): void
  /** Removes every listener and what card-fields added; the shop's elements stay. */
  destroy(): void
}

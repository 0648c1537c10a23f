import type { CardBrand, CardBrandType, CardInput, FieldVerdict, SavedCardCodeInput } from 'card-jwe'
import type { CardFieldMessages, CardFieldMessagesOverride, CardFieldName } from './messages.js'

/** The shop's own inputs. The expiry is one MM/YY field, or a month and a year field. */
export interface CardFieldInputs {
  /** The card number. */
  readonly number: HTMLInputElement
  /** The expiry as one MM/YY field; or give `expiryMonth` and `expiryYear`. */
  readonly expiry?: HTMLInputElement
  /** The expiry month, with `expiryYear`. */
  readonly expiryMonth?: HTMLInputElement
  /** The expiry year (YY or YYYY), with `expiryMonth`. */
  readonly expiryYear?: HTMLInputElement
  /** The security code; hidden by the shop's container for brands without one. */
  readonly securityCode?: HTMLInputElement
  /** The name on the card. */
  readonly holderName?: HTMLInputElement
}

/** Options of {@link attachCardFields}. */
export interface CardFieldsOptions {
  /** The inputs to attach to. */
  readonly fields: CardFieldInputs
  /** The shop's element for each field's error; `aria-describedby` points at it. */
  readonly errors?: Partial<Record<CardFieldName, HTMLElement>>
  /**
   * The shop's polite live region: one announcement each time a field's error appears or changes
   * as the shopper types or leaves it; none from `validate()`, so the page's summary of a submit
   * is its one announcement.
   */
  readonly announcer?: HTMLElement
  /** The security code's label, whose text follows the brand ("Security code (CID, 4 digits)"). */
  readonly securityCodeLabel?: HTMLElement
  /** Hidden while the number's brand has no security code (Bancontact). */
  readonly securityCodeContainer?: HTMLElement
  /**
   * The words: English by default; a locale's `messages` from `@card-jwe/card-fields/locales/<tag>`
   * (`nl`, `de`, `ar`...: see `pickLocale`), a complete `CardFieldMessages` for any other language,
   * or an override of some English messages (`mergeMessages` lays one over a locale). Each locale
   * is its own entry, so a page ships only the one it imports.
   */
  readonly messages?: CardFieldMessages | CardFieldMessagesOverride
  /** Move the focus to the next field when one is complete and valid. Off by default. */
  readonly autoAdvance?: boolean
  /** Clock for "expired"; defaults to the real time. */
  readonly now?: () => Date
  /** Called after each change of a field: its verdict and the brand, never a value. */
  readonly onChange?: (change: CardFieldChange) => void
}

/** What {@link CardFieldsOptions.onChange} gets: verdicts and brand only, never a value. */
export interface CardFieldChange {
  /** The field that changed. */
  readonly field: CardFieldName
  /** Its verdict now. */
  readonly verdict: FieldVerdict
  /** The number's brand, once known. */
  readonly brand: CardBrandType | null
}

/** The attached fields. */
export interface CardFields {
  /** The card as typed, for card-jwe's `encryptCard` (which normalises it). */
  values(): CardInput
  /**
   * Shows every field's error and focuses the first field in error, which is read with its error;
   * announces nothing (the page says its summary once). True when the card may be encrypted.
   */
  validate(): boolean
  /** The number's brand, once known. */
  brand(): CardBrand | null
  /** Empties every field and its error. */
  clear(): void
  /** Disables or enables every field (while a payment runs). */
  setDisabled(disabled: boolean): void
  /** Removes every listener and everything card-fields added to the shop's elements. */
  destroy(): void
}

/** Options of `attachSavedCardCode` (`@card-jwe/card-fields/saved-card-code`). */
export interface SavedCardCodeOptions {
  /** The saved card's `brand` from the service's `storedPaymentMethods` (`amex`, `visa`, `bcmc`...). */
  readonly brand: string
  /** The security-code input; required unless the brand's cards carry no code. */
  readonly securityCode?: HTMLInputElement
  /** The shop's element for the code's error; `aria-describedby` points at it. */
  readonly error?: HTMLElement
  /** The shop's polite live region: one announcement each time the code's error appears or changes. */
  readonly announcer?: HTMLElement
  /** The code's label, whose text follows the saved card's brand ("Security code (CID, 4 digits)"). */
  readonly securityCodeLabel?: HTMLElement
  /** Hidden when the saved card's brand has no security code (Bancontact). */
  readonly securityCodeContainer?: HTMLElement
  /**
   * Every word the field says, from `@card-jwe/card-fields/locales/<tag>` (changed with `mergeMessages`
   * if you like): the entry has none of its own.
   */
  readonly messages: CardFieldMessages
  /** Called after each change of the code: its verdict and the brand, never a value. */
  readonly onChange?: (change: CardFieldChange) => void
}

/** The attached code field of a saved card. */
export interface SavedCardCode {
  /** False for a brand whose cards carry no code: pay with `storedPaymentMethodId` alone, no JWE. */
  readonly needsCode: boolean
  /** The code and the saved card's brand, for card-jwe's `encryptSecurityCode`. */
  values(): SavedCardCodeInput
  /** Shows the code's error and focuses the field in error. True when the code may be encrypted. */
  validate(): boolean
  /** Empties the field and its error. */
  clear(): void
  /** Disables or enables the field (while a payment runs). */
  setDisabled(disabled: boolean): void
  /** Removes every listener and everything card-fields added to the shop's elements. */
  destroy(): void
}

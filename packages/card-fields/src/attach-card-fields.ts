import {
  expiryVerdict,
  holderNameVerdict,
  numberVerdict,
  securityCodeVerdict,
  type CardBrand,
  type CardBrandType,
  type CardInput,
  type FieldVerdict,
} from 'card-jwe'
import { editCardNumber, reformatCardNumber } from './edit-card-number.js'
import { editExpiry, editExpiryMonth, editExpiryYear, reformatExpiry, reformatExpiryPart, splitWholeExpiry } from './edit-expiry.js'
import { editSecurityCode, reformatSecurityCode } from './edit-security-code.js'
import { CardFieldsError } from './errors.js'
import type { EditResult, FieldEdit, FieldState } from './field-edit.js'
import { digitsOf } from './lib/digits.js'
import { editFromEvent } from './lib/edit-from-event.js'
import { fieldErrorView, type FieldErrorView } from './lib/field-error-view.js'
import { mergeMessages, type CardFieldMessages, type CardFieldMessagesOverride, type CardFieldName } from './messages.js'
import { MESSAGES_EN } from './messages-en.js'

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
  /** The shop's polite live region: one announcement each time a field's error appears or changes. */
  readonly announcer?: HTMLElement
  /** The security code's label, whose text follows the brand ("Security code (CID, 4 digits)"). */
  readonly securityCodeLabel?: HTMLElement
  /** Hidden while the number's brand has no security code (Bancontact). */
  readonly securityCodeContainer?: HTMLElement
  /**
   * The words: English by default; `MESSAGES_NL` for Dutch, a complete `CardFieldMessages` for any
   * other language, or an override of some English messages. Imported, so unused languages are
   * not shipped.
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
  /** Shows every field's error; focuses the first field in error. True when the card may be encrypted. */
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

/** Input types with a selection to keep; `type="number"` has none (HTML, 4.10.5.2.10). */
const TYPES_WITH_CARET = new Set(['text', 'tel', 'search', 'password', 'url'])

/** The order of the fields, for auto-advance and for the first error to focus. */
const ORDER: readonly CardFieldName[] = ['number', 'expiry', 'expiryMonth', 'expiryYear', 'securityCode', 'holderName']

function checkInputs(fields: CardFieldInputs): void {
  // Month and year come as a pair when there is no one-field expiry.
  const pair = !fields?.expiry && !!(fields?.expiryMonth || fields?.expiryYear)
  for (const name of ORDER) {
    const input = fields?.[name]
    if (!input && (name === 'number' || (pair && name.startsWith('expiry') && name !== 'expiry'))) {
      throw new CardFieldsError('ERR_INVALID_ARGUMENT', `fields.${name}: required`)
    }
    if (input && !TYPES_WITH_CARET.has(input.type)) {
      throw new CardFieldsError('ERR_INVALID_ARGUMENT', `fields.${name}: an <input type="text"> (a number input has no caret to keep)`)
    }
  }
}

function stateOf(input: HTMLInputElement): FieldState {
  const end = input.value.length
  return { value: input.value, selectionStart: input.selectionStart ?? end, selectionEnd: input.selectionEnd ?? end }
}

/**
 * Attaches to a shop's own card inputs: formatting as the shopper types with the caret kept where
 * it was, the brand from card-jwe's table, verdicts shown and announced, and `values()` for
 * `encryptCard`. Adds no elements and no iframes; never stores, logs or emits a value.
 */
export function attachCardFields(options: CardFieldsOptions): CardFields {
  checkInputs(options.fields)
  const inputs = new Map<CardFieldName, HTMLInputElement>()
  for (const name of ORDER) if (options.fields[name]) inputs.set(name, options.fields[name]!)
  const messages = mergeMessages(MESSAGES_EN, options.messages)
  const views = new Map<CardFieldName, FieldErrorView>()
  for (const [name, input] of inputs) views.set(name, fieldErrorView(input, options.errors?.[name]))
  const touched = new Set<CardFieldName>()
  const listeners = new AbortController()
  const announcer = options.announcer
  const addedLive = !!announcer && !announcer.hasAttribute('aria-live')
  if (addedLive) announcer.setAttribute('aria-live', 'polite')
  let brand: CardBrand | null = null

  const codeSize = () => (brand?.code ? brand.code.size : 4)
  const editors: Partial<Record<CardFieldName, { edit(state: FieldState, edit: FieldEdit): EditResult | null; reformat(state: FieldState): EditResult }>> = {
    number: { edit: editCardNumber, reformat: reformatCardNumber },
    expiry: { edit: editExpiry, reformat: reformatExpiry },
    expiryMonth: { edit: editExpiryMonth, reformat: (s) => reformatExpiryPart(s, 'month') },
    expiryYear: { edit: editExpiryYear, reformat: (s) => reformatExpiryPart(s, 'year') },
    securityCode: { edit: (s, e) => editSecurityCode(s, e, codeSize()), reformat: (s) => reformatSecurityCode(s, codeSize()) },
  }

  const value = (name: CardFieldName) => inputs.get(name)?.value ?? ''
  const clock = options.now ? { now: options.now } : {}

  /** The verdict for a field; month and year are judged together and the blame goes to one of them. */
  function verdictOf(name: CardFieldName): FieldVerdict {
    switch (name) {
      case 'number':
        return numberVerdict(value('number'))
      case 'expiry':
        return expiryVerdict(value('expiry'), clock)
      case 'expiryMonth':
      case 'expiryYear': {
        const pair = expiryVerdict({ month: value('expiryMonth'), year: value('expiryYear') }, clock)
        const blamed = pair.field === 'expiryMonth' ? 'expiryMonth' : 'expiryYear'
        return pair.isValid || blamed === name ? pair : { isValid: true, isPotentiallyValid: true }
      }
      case 'securityCode':
        return securityCodeVerdict(value('securityCode'), brand)
      case 'holderName':
        return holderNameVerdict(value('holderName'))
    }
  }

  /** The shop's own label for a field, in the page's language, to start an announcement. */
  function labelOf(input: HTMLInputElement): string {
    const label = input.labels?.[0]?.textContent?.trim()
    return label ? `${label}: ` : ''
  }

  function announce(text: string): void {
    if (announcer) announcer.textContent = text
  }

  /** Shows a field's state: while typing only hopeless input, after blur or submit any error. */
  function show(name: CardFieldName, final: boolean): boolean {
    const verdict = verdictOf(name)
    const wrong = final ? !verdict.isValid : !verdict.isPotentiallyValid
    const fieldMessages = messages.errors[name]
    const message = wrong ? ((verdict.rule && fieldMessages[verdict.rule]) ?? fieldMessages.invalid) : ''
    if (views.get(name)!.show(message) && message) announce(`${labelOf(inputs.get(name)!)}${message}`)
    options.onChange?.({ field: name, verdict, brand: brand?.type ?? null })
    return !wrong
  }

  /** The code field follows the brand: its size, its label, hidden for brands without a code. */
  function followBrand(): void {
    const next = numberVerdict(value('number')).brand
    if (next?.type === brand?.type) return
    brand = next
    const code = brand ? brand.code : undefined
    if (options.securityCodeLabel) options.securityCodeLabel.textContent = messages.securityCodeLabel(code)
    if (options.securityCodeContainer) options.securityCodeContainer.hidden = code === null
    const codeInput = inputs.get('securityCode')
    if (codeInput && codeInput.value) {
      const result = code === null ? { value: '', caret: 0 } : reformatSecurityCode(stateOf(codeInput), codeSize())
      if (result.value !== codeInput.value) write(codeInput, result)
    }
  }

  function write(input: HTMLInputElement, result: EditResult): void {
    input.value = result.value
    // Only the focused field gets a selection: setting one elsewhere could move the focus in some engines.
    if (input.ownerDocument.activeElement === input) input.setSelectionRange(result.caret, result.caret)
  }

  function isComplete(name: CardFieldName): boolean {
    if (!verdictOf(name).isValid) return false
    if (name === 'number') return !!brand && digitsOf(value('number')).length === Math.max(...brand.lengths)
    if (name === 'securityCode') return value('securityCode').length === codeSize()
    if (name === 'expiryMonth') return value('expiryMonth').length === 2
    return name !== 'holderName'
  }

  function advanceFrom(name: CardFieldName): void {
    // The next field the shopper can type into: not disabled, not hidden (no layout box).
    const next = ORDER.slice(ORDER.indexOf(name) + 1)
      .map((n) => inputs.get(n))
      .find((input) => input && !input.disabled && input.getClientRects().length > 0)
    next?.focus()
  }

  /** After any change of a field's text: the brand, the verdict while typing, auto-advance. */
  function changed(name: CardFieldName, typedAtEnd: boolean): void {
    touched.add(name)
    if (name === 'number') followBrand()
    show(name, false)
    // Month and year share one verdict: a change to one may clear the other's error.
    if (name === 'expiryMonth' && touched.has('expiryYear')) show('expiryYear', false)
    if (name === 'expiryYear' && touched.has('expiryMonth')) show('expiryMonth', false)
    if (options.autoAdvance && typedAtEnd && isComplete(name)) advanceFrom(name)
  }

  /** A whole expiry autofilled or pasted into the month field: the month there, the year in its own field. */
  function splitIntoMonthAndYear(text: string): boolean {
    const parts = splitWholeExpiry(text)
    if (!parts) return false
    write(inputs.get('expiryMonth')!, { value: parts.month, caret: 2 })
    write(inputs.get('expiryYear')!, { value: parts.year, caret: parts.year.length })
    changed('expiryMonth', false)
    changed('expiryYear', false)
    return true
  }

  for (const [name, input] of inputs) {
    const editor = editors[name]
    const signal = listeners.signal
    if (editor) {
      input.addEventListener(
        'beforeinput',
        (event) => {
          const edit = editFromEvent(event as InputEvent)
          if (!edit) return
          event.preventDefault()
          if (name === 'expiryMonth' && edit.kind === 'insert' && splitIntoMonthAndYear(edit.text)) return
          const result = editor.edit(stateOf(input), edit)
          if (!result) return
          write(input, result)
          changed(name, edit.kind === 'insert' && result.caret === result.value.length)
        },
        { signal },
      )
      input.addEventListener(
        'input',
        (event) => {
          // The browser made this edit (composition, autofill, a word deletion): re-format what is there.
          if ((event as InputEvent).isComposing || (name === 'expiryMonth' && splitIntoMonthAndYear(input.value))) return
          const result = editor.reformat(stateOf(input))
          if (result.value !== input.value) write(input, result)
          changed(name, false)
        },
        { signal },
      )
      input.addEventListener('compositionend', () => write(input, editor.reformat(stateOf(input))), { signal })
    } else {
      input.addEventListener('input', () => changed(name, false), { signal })
    }
    // On blur only a field the shopper typed into is judged: an untouched one is not scolded yet.
    input.addEventListener('blur', () => touched.has(name) && show(name, true), { signal })
  }
  if (options.securityCodeLabel) options.securityCodeLabel.textContent = messages.securityCodeLabel(undefined)

  return {
    values() {
      const expiry = inputs.has('expiry') ? { expiry: value('expiry') } : { expiryMonth: value('expiryMonth'), expiryYear: value('expiryYear') }
      const cvc = inputs.has('securityCode') && brand?.code !== null ? { cvc: value('securityCode') } : {}
      const holderName = inputs.has('holderName') ? { holderName: value('holderName') } : {}
      return { number: value('number'), ...expiry, ...cvc, ...holderName }
    },
    validate() {
      let first: HTMLInputElement | undefined
      for (const [name, input] of inputs) {
        if (name === 'securityCode' && brand?.code === null) continue
        touched.add(name)
        if (!show(name, true)) first ??= input
      }
      first?.focus()
      return first === undefined
    },
    brand: () => brand,
    clear() {
      for (const [name, input] of inputs) {
        input.value = ''
        views.get(name)!.show('')
      }
      touched.clear()
      followBrand()
    },
    setDisabled(disabled) {
      for (const input of inputs.values()) input.disabled = disabled
    },
    destroy() {
      listeners.abort()
      for (const view of views.values()) view.detach()
      if (addedLive) announcer.removeAttribute('aria-live')
    },
  }
}

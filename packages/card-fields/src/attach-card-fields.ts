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
import { FieldErrorView } from './lib/field-error-view.js'
import { mergeMessages, type CardFieldMessages, type CardFieldMessagesOverride, type CardFieldName } from './messages.js'
import { MESSAGES_EN } from './messages-en.js'
import { MESSAGES_NL } from './messages-nl.js'

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
  /** The shop's polite live region: one announcement per change of a field's state or the brand. */
  readonly announcer?: HTMLElement
  /** The security code's label, whose text follows the brand ("Security code (CID, 4 digits)"). */
  readonly securityCodeLabel?: HTMLElement
  /** Hidden while the number's brand has no security code (Bancontact). */
  readonly securityCodeContainer?: HTMLElement
  /** The language of the built-in messages: "en" (default) or "nl". */
  readonly locale?: 'en' | 'nl'
  /** Messages for any other language, or changes to the locale's. */
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

/** What browsers autofill each field from (HTML, 4.10.18.7.1). */
const AUTOCOMPLETE: Readonly<Record<CardFieldName, string>> = {
  number: 'cc-number',
  expiry: 'cc-exp',
  expiryMonth: 'cc-exp-month',
  expiryYear: 'cc-exp-year',
  securityCode: 'cc-csc',
  holderName: 'cc-name',
}

/** The order of the fields, for auto-advance and for the first error to focus. */
const ORDER: readonly CardFieldName[] = ['number', 'expiry', 'expiryMonth', 'expiryYear', 'securityCode', 'holderName']

function checkInputs(fields: CardFieldInputs): void {
  const wrong = (name: string, rule: string) => new CardFieldsError('ERR_INVALID_ARGUMENT', `fields.${name}: ${rule}`)
  if (!fields || !fields.number) throw wrong('number', 'required')
  const split = !!fields.expiryMonth || !!fields.expiryYear
  if (split && !!fields.expiry) throw wrong('expiry', 'give expiry, or expiryMonth and expiryYear, not both')
  if (split && !(fields.expiryMonth && fields.expiryYear)) throw wrong(fields.expiryMonth ? 'expiryYear' : 'expiryMonth', 'required with the other')
  for (const [name, input] of Object.entries(fields) as Array<[string, unknown]>) {
    if (input === undefined) continue
    if (!(input instanceof HTMLInputElement)) throw wrong(name, 'an <input> element')
    if (!TYPES_WITH_CARET.has(input.type)) throw wrong(name, 'use type="text" with inputmode="numeric" (a number input has no caret to keep)')
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
  const messages =
    options.messages && 'errors' in options.messages && 'fieldNames' in options.messages && typeof options.messages.securityCodeLabel === 'function' && typeof options.messages.brandRecognised === 'function'
      ? mergeMessages(options.messages as CardFieldMessages)
      : mergeMessages(options.locale === 'nl' ? MESSAGES_NL : MESSAGES_EN, options.messages as CardFieldMessagesOverride | undefined)
  const views = new Map<CardFieldName, FieldErrorView>()
  for (const [name, input] of inputs) views.set(name, new FieldErrorView(input, options.errors?.[name]))
  const touched = new Set<CardFieldName>()
  const listeners = new AbortController()
  const addedAttributes: Array<[HTMLElement, string]> = []
  const announcer = options.announcer
  if (announcer && !announcer.hasAttribute('aria-live')) {
    announcer.setAttribute('aria-live', 'polite')
    addedAttributes.push([announcer, 'aria-live'])
  }
  let brand: CardBrand | null = null

  const setDefault = (element: HTMLElement, attribute: string, value: string) => {
    if (element.hasAttribute(attribute)) return
    element.setAttribute(attribute, value)
    addedAttributes.push([element, attribute])
  }
  for (const [name, input] of inputs) {
    setDefault(input, 'autocomplete', AUTOCOMPLETE[name])
    if (name !== 'holderName') setDefault(input, 'inputmode', 'numeric')
    setDefault(input, 'spellcheck', 'false')
  }

  const codeSize = () => (brand?.code ? brand.code.size : 4)
  const editors: Partial<Record<CardFieldName, { edit(state: FieldState, edit: FieldEdit): EditResult | null; reformat(state: FieldState): EditResult }>> = {
    number: { edit: editCardNumber, reformat: reformatCardNumber },
    expiry: { edit: editExpiry, reformat: reformatExpiry },
    expiryMonth: { edit: editExpiryMonth, reformat: (s) => reformatExpiryPart(s, 'month') },
    expiryYear: { edit: editExpiryYear, reformat: (s) => reformatExpiryPart(s, 'year') },
    securityCode: { edit: (s, e) => editSecurityCode(s, e, codeSize()), reformat: (s) => reformatSecurityCode(s, codeSize()) },
  }

  const value = (name: CardFieldName) => inputs.get(name)?.value ?? ''
  const now = options.now

  /** The verdict for a field; month and year are judged together and the blame goes to one of them. */
  function verdictOf(name: CardFieldName): FieldVerdict {
    switch (name) {
      case 'number':
        return numberVerdict(value('number'))
      case 'expiry':
        return expiryVerdict(value('expiry'), now ? { now } : {})
      case 'expiryMonth':
      case 'expiryYear': {
        const pair = expiryVerdict({ month: value('expiryMonth'), year: value('expiryYear') }, now ? { now } : {})
        const blamed = pair.field === 'expiryMonth' ? 'expiryMonth' : 'expiryYear'
        return pair.isValid || blamed === name ? pair : { isValid: true, isPotentiallyValid: true }
      }
      case 'securityCode':
        return securityCodeVerdict(value('securityCode'), brand)
      case 'holderName':
        return holderNameVerdict(value('holderName'))
    }
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
    if (views.get(name)!.show(message) && message) announce(`${messages.fieldNames[name]}: ${message}`)
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
    if (brand) announce(messages.brandRecognised(brand.type))
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

  const isHiddenCodeField = (input: HTMLInputElement) => input === inputs.get('securityCode') && options.securityCodeContainer?.hidden === true

  function advanceFrom(name: CardFieldName): void {
    const next = ORDER.slice(ORDER.indexOf(name) + 1)
      .map((n) => inputs.get(n))
      .find((input) => input && !input.disabled && !isHiddenCodeField(input))
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

  for (const [name, input] of inputs) {
    const editor = editors[name]
    const signal = listeners.signal
    if (editor) {
      input.addEventListener(
        'beforeinput',
        (event) => {
          const edit = editFromEvent(event as InputEvent)
          if (!edit) return
          const state = stateOf(input)
          // Autofill of a whole expiry into the month field: month here, year in its own field.
          const parts = name === 'expiryMonth' && edit.kind === 'insert' ? splitWholeExpiry(edit.text) : null
          event.preventDefault()
          if (parts) {
            write(input, { value: parts.month, caret: 2 })
            write(inputs.get('expiryYear')!, { value: parts.year, caret: parts.year.length })
            changed('expiryMonth', false)
            changed('expiryYear', false)
            return
          }
          const result = editor.edit(state, edit)
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
          if ((event as InputEvent).isComposing) return
          const parts = name === 'expiryMonth' ? splitWholeExpiry(input.value) : null
          if (parts) {
            write(input, { value: parts.month, caret: 2 })
            write(inputs.get('expiryYear')!, { value: parts.year, caret: parts.year.length })
            changed('expiryYear', false)
          } else {
            const result = editor.reformat(stateOf(input))
            if (result.value !== input.value) write(input, result)
          }
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
      for (const [element, attribute] of addedAttributes) element.removeAttribute(attribute)
    },
  }
}

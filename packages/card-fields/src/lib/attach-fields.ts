import { numberVerdict, type CardBrand, type CardInput, type ExpiryVerdict } from 'card-jwe'
import { editCardNumber, reformatCardNumber } from '../edit-card-number.js'
import { editExpiry, editExpiryMonth, editExpiryYear, reformatExpiry, reformatExpiryPart, splitWholeExpiry } from '../edit-expiry.js'
import { editSecurityCode, reformatSecurityCode } from '../edit-security-code.js'
import type { EditResult, FieldEdit, FieldState } from '../field-edit.js'
import { fieldsAfter, isComplete } from './auto-advance.js'
import { checkInputs } from './check-inputs.js'
import { editFromEvent } from './edit-from-event.js'
import { errorMessage, isFlagged } from './error-message.js'
import { fieldErrorView, type FieldErrorView } from './field-error-view.js'
import { FIELD_ORDER } from './field-order.js'
import { fieldVerdict, securityCodeSize, type TypedValues, type VerdictContext } from './field-verdict.js'
import { mergeMessages, type CardFieldMessages, type CardFieldName } from '../messages.js'
import type { CardFieldInputs, CardFields, CardFieldsOptions } from '../types.js'

function stateOf(input: HTMLInputElement): FieldState {
  const end = input.value.length
  return { value: input.value, selectionStart: input.selectionStart ?? end, selectionEnd: input.selectionEnd ?? end }
}

/** A saved card's fixed brand: the form has only its code field, which follows that brand for good. */
export interface SavedBrand {
  /** The saved card's brand; null when card-jwe does not know it (three or four digits). */
  readonly brand: CardBrand | null
}

/** {@link CardFieldsOptions}, but for a saved card's code the number field too may be missing. */
export type AttachOptions = Omit<CardFieldsOptions, 'fields'> & { readonly fields: Partial<CardFieldInputs> }

/** Whether fields were attached in this window before: what a browser put back is emptied at the first attach only. */
let attachedBefore = false

/** Whether the page was loaded again by Back or Forward (a history entry's form state restored). */
function cameBack(page: Window | null | undefined): boolean {
  return (page?.performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type === 'back_forward'
}

/**
 * The fields, for a new card (the brand follows the number) or, with `saved`, for a saved card's
 * code alone (the brand is the saved card's and never changes). `words` are the ones under the
 * shop's `messages`: the entry's default, so an entry without one ships no words of its own.
 */
export function attachFields(options: AttachOptions, words: CardFieldMessages, saved?: SavedBrand): CardFields {
  checkInputs(options.fields, saved !== undefined)
  const inputs = new Map<CardFieldName, HTMLInputElement>()
  for (const name of FIELD_ORDER) if (options.fields[name]) inputs.set(name, options.fields[name]!)
  const messages = mergeMessages(words, options.messages)
  const views = new Map<CardFieldName, FieldErrorView>()
  for (const [name, input] of inputs) views.set(name, fieldErrorView(input, options.errors?.[name], name !== 'holderName'))
  const touched = new Set<CardFieldName>()
  const listeners = new AbortController()
  const announcer = options.announcer
  const addedLive = !!announcer && !announcer.hasAttribute('aria-live')
  if (addedLive) announcer.setAttribute('aria-live', 'polite')
  let brand: CardBrand | null = saved ? saved.brand : null

  const codeSize = () => securityCodeSize(brand)
  const editors: Partial<
    Record<CardFieldName, { edit(state: FieldState, edit: FieldEdit): EditResult | null; reformat(state: FieldState): EditResult }>
  > = {
    number: { edit: editCardNumber, reformat: reformatCardNumber },
    expiry: { edit: editExpiry, reformat: reformatExpiry },
    expiryMonth: { edit: editExpiryMonth, reformat: (s) => reformatExpiryPart(s, 'month') },
    expiryYear: { edit: editExpiryYear, reformat: (s) => reformatExpiryPart(s, 'year') },
    securityCode: { edit: (s, e) => editSecurityCode(s, e, codeSize()), reformat: (s) => reformatSecurityCode(s, codeSize()) },
  }

  const value = (name: CardFieldName) => inputs.get(name)?.value ?? ''

  /** What the rules in lib/ judge: the fields' text now, the brand shown and the shop's clock. */
  function typed(): TypedValues {
    const values: Partial<Record<CardFieldName, string>> = {}
    for (const [name, input] of inputs) values[name] = input.value
    return values
  }
  const context = (): VerdictContext => ({ brand, now: options.now })

  /** The shop's own label for a field, in the page's language, to start an announcement. */
  function labelOf(input: HTMLInputElement): string {
    // `labels` is null only for a hidden input, never a card field.
    const label = input.labels![0]?.textContent?.trim()
    return label ? `${label}: ` : ''
  }

  function announce(text: string): void {
    if (announcer) announcer.textContent = text
  }

  /**
   * Shows a field's state: while typing only hopeless input, after blur or submit any error. On
   * submit (`quiet`) nothing is announced: focus goes to the first field in error, read with its
   * error, and the page's summary is the submit's one announcement.
   */
  function show(name: CardFieldName, final: boolean, quiet?: boolean): boolean {
    const verdict = fieldVerdict(name, typed(), context())
    const flagged = isFlagged(verdict, final)
    const message = flagged ? errorMessage(verdict, messages.errors[name]) : ''
    if (views.get(name)!.show(message) && message && !quiet) announce(`${labelOf(inputs.get(name)!)}${message}`)
    // Never a value: an expiry's verdict also carries its month and year.
    const { month, year, ...seen } = verdict as ExpiryVerdict
    options.onChange?.({ field: name, verdict: seen, brand: brand?.type ?? null })
    return !flagged
  }

  /** The code field follows the brand: its size, its label, hidden for brands without a code. */
  function followBrand(): void {
    const next = saved ? saved.brand : numberVerdict(value('number')).brand
    if (next?.type === brand?.type) return
    brand = next
    labelCode()
    const codeInput = inputs.get('securityCode')
    if (codeInput?.value) {
      const result = brand?.code === null ? { value: '', caret: 0 } : reformatSecurityCode(stateOf(codeInput), codeSize())
      if (result.value !== codeInput.value) write(codeInput, result)
    }
  }

  /** The code's label and container as the brand has it (a brand not known yet: undefined). */
  function labelCode(): void {
    const code = brand ? brand.code : undefined
    if (options.securityCodeLabel) options.securityCodeLabel.textContent = messages.securityCodeLabel(code)
    if (options.securityCodeContainer) options.securityCodeContainer.hidden = code === null
  }

  function write(input: HTMLInputElement, result: EditResult): void {
    input.value = result.value
    // Only the focused field gets a selection: setting one elsewhere could move the focus in some engines.
    if (input.ownerDocument.activeElement === input) input.setSelectionRange(result.caret, result.caret)
  }

  function advanceFrom(name: CardFieldName): void {
    // The next field the shopper can type into: not disabled, not hidden (no layout box).
    const next = fieldsAfter(name)
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
    if (options.autoAdvance && typedAtEnd && isComplete(name, typed(), context())) advanceFrom(name)
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
      // The browser made this edit (composition, autofill, a word deletion): re-format what is there.
      // A composition's last input comes while composing: its end judges the text.
      const reformat = (event: Event) => {
        if ((event as InputEvent).isComposing || (name === 'expiryMonth' && splitIntoMonthAndYear(input.value))) return
        const result = editor.reformat(stateOf(input))
        if (result.value !== input.value) write(input, result)
        changed(name, false)
      }
      input.addEventListener('input', reformat, { signal })
      input.addEventListener('compositionend', reformat, { signal })
    } else {
      input.addEventListener('input', () => changed(name, false), { signal })
    }
    // On blur only a field the shopper typed into is judged: an untouched one is not scolded yet.
    input.addEventListener('blur', () => touched.has(name) && show(name, true), { signal })
  }
  // Back to a page that was left for good (not kept in the back-forward cache), browsers put typed
  // fields back without an input event: Blink after the page's scripts, so the fields are emptied
  // as the page is left; WebKit saves them before that, so what it put back goes when attached.
  const page = [...inputs.values()][0]?.ownerDocument.defaultView
  const forget = () => {
    for (const input of inputs.values()) input.value = ''
  }
  page?.addEventListener('pagehide', (event) => (event as PageTransitionEvent).persisted || forget(), { signal: listeners.signal })
  // Once a window (a module's realm): its navigation type stays back_forward, and a later attach meets
  // what the shopper typed.
  if (!attachedBefore && cameBack(page)) forget()
  attachedBefore = true
  // The code as the brand has it from the start: the saved card's, the number's if one is there, or
  // none known yet (shown, unnamed).
  followBrand()
  labelCode()

  return {
    values() {
      // A one-field expiry, or month and year; no code for a brand without one.
      const card: Record<string, string> = inputs.has('expiry') ? {} : { expiryMonth: '', expiryYear: '' }
      for (const [name, input] of inputs) if (name !== 'securityCode' || brand?.code !== null) card[name] = input.value
      return { number: '', ...card } as CardInput
    },
    validate() {
      // Text the browser put back without an event (a restored form) has a brand too.
      followBrand()
      let first: HTMLInputElement | undefined
      for (const [name, input] of inputs) {
        if (name === 'securityCode' && brand?.code === null) continue
        touched.add(name)
        if (!show(name, true, true)) first ??= input
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

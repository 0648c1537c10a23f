/**
 * A shop's card form for the browser tests: a fresh <form> for each test, inputs with their labels,
 * and card-fields attached to them; what a test attached is destroyed after it.
 */
import { afterEach, beforeEach } from 'vitest'
import { attachCardFields, type CardFields, type CardFieldsOptions } from '../src/index.ts'

export function useCardForm() {
  const card: { form: HTMLFormElement; fields: CardFields | undefined } = { form: document.createElement('form'), fields: undefined }
  beforeEach(() => {
    card.form = document.createElement('form')
    document.body.append(card.form)
  })
  afterEach(() => {
    card.fields?.destroy()
    card.fields = undefined
    card.form.remove()
  })

  /** An input with its <label>, as a shop's form has them. */
  function input(id: string, label = ''): HTMLInputElement {
    const element = document.createElement('input')
    Object.assign(element, { id, type: 'text' })
    if (label) {
      const text = document.createElement('label')
      Object.assign(text, { htmlFor: id, textContent: label })
      card.form.append(text)
    }
    card.form.append(element)
    return element
  }

  function element(id: string): HTMLElement {
    const div = document.createElement('div')
    div.id = id
    card.form.append(div)
    return div
  }

  /** The whole form (number, expiry, code, name, their errors, announcer, code label and container) with card-fields on it. */
  function attach(extra: Partial<CardFieldsOptions> = {}) {
    const number = input('number', 'Card number')
    const expiry = input('expiry', 'Expiry date')
    const securityCode = input('cvc')
    const holderName = input('name', 'Name on card')
    const errors = {
      number: element('number-error'),
      expiry: element('expiry-error'),
      securityCode: element('cvc-error'),
      holderName: element('name-error'),
    }
    const announcer = element('announcer')
    const securityCodeLabel = element('cvc-label')
    const securityCodeContainer = element('cvc-container')
    const fields = attachCardFields({
      fields: { number, expiry, securityCode, holderName },
      errors,
      announcer,
      securityCodeLabel,
      securityCodeContainer,
      ...extra,
    })
    card.fields = fields
    return { number, expiry, securityCode, holderName, errors, announcer, securityCodeLabel, securityCodeContainer, fields }
  }

  return { card, input, element, attach }
}

/**
 * card-fields in a real browser, with real key presses (the provider's keyboard, so the browser
 * fires its own beforeinput and input events): the caret tables replayed key by key, then brand,
 * verdicts, accessibility, messages, auto-advance, autofill and composition, clear and destroy.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { attachCardFields, mergeMessages, type CardFieldChange, type CardFields, type CardFieldsOptions } from '../src/index.ts'
import { messages as MESSAGES_NL } from '../src/locales/nl.ts'
import { parseState, writeState, type TableKey } from './caret-notation.ts'
import { testCardExpiry } from '@card-jwe/testkit/test-cards'
import { EXPIRY_TABLE, NUMBER_TABLE } from './caret-tables.ts'

/** An expiry always ahead of the clock, typed as MMYY (auto-advance needs a valid one). */
const AHEAD = `${testCardExpiry().month}${testCardExpiry().year.slice(2)}`

let form: HTMLFormElement
let fields: CardFields | undefined

/** An input with its <label>, as a shop's form has them. */
function input(id: string, label = ''): HTMLInputElement {
  const element = document.createElement('input')
  Object.assign(element, { id, type: 'text' })
  if (label) {
    const text = document.createElement('label')
    Object.assign(text, { htmlFor: id, textContent: label })
    form.append(text)
  }
  form.append(element)
  return element
}

function element(id: string): HTMLElement {
  const div = document.createElement('div')
  div.id = id
  form.append(div)
  return div
}

beforeEach(() => {
  form = document.createElement('form')
  document.body.append(form)
})

afterEach(() => {
  fields?.destroy()
  fields = undefined
  form.remove()
})

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
  fields = attachCardFields({
    fields: { number, expiry, securityCode, holderName },
    errors,
    announcer,
    securityCodeLabel,
    securityCodeContainer,
    ...extra,
  })
  return { number, expiry, securityCode, holderName, errors, announcer, securityCodeLabel, securityCodeContainer, fields }
}

/** Puts the field in the written state, then presses the key for real. */
async function press(field: HTMLInputElement, before: string, key: TableKey): Promise<string> {
  const state = parseState(before)
  field.focus()
  field.value = state.value
  field.setSelectionRange(state.selectionStart, state.selectionEnd)
  if (key === 'Backspace') await userEvent.keyboard('{Backspace}')
  else if (key === 'Delete') await userEvent.keyboard('{Delete}')
  else if ('type' in key) await userEvent.keyboard(key.type.replace(/[{[]/g, (c) => c + c))
  return writeState(field.value, field.selectionStart ?? -1)
}

const typedRows = <T extends readonly [string, TableKey, string | null]>(table: readonly T[]) =>
  table.filter(([, key]) => typeof key === 'string' || 'type' in key)

describe('the caret tables, key by key', () => {
  it.each(typedRows(NUMBER_TABLE))('number: %s + %o -> %s', async (before, key, after) => {
    const { number } = attach()
    expect(await press(number, before, key)).toBe(after ?? before)
  })

  it.each(typedRows(EXPIRY_TABLE))('expiry: %s + %o -> %s', async (before, key, after) => {
    const { expiry } = attach()
    expect(await press(expiry, before, key)).toBe(after ?? before)
  })

  it.each(NUMBER_TABLE.concat(EXPIRY_TABLE).filter(([before, key]) => typeof key === 'object' && 'paste' in key && before === '|'))(
    'a real paste (clipboard, Ctrl+V) into an empty field: %s + %o -> %s',
    async (_before, key, after) => {
      const isExpiry = /\//.test(after ?? '')
      const { number, expiry } = attach()
      const source = input('clipboard-source')
      source.value = (key as { paste: string }).paste
      source.select()
      await userEvent.copy()
      const target = isExpiry ? expiry : number
      target.focus()
      await userEvent.paste()
      expect(writeState(target.value, target.selectionStart!)).toBe(after)
    },
  )

  it('types a whole number, gaps appearing as the shopper types', async () => {
    const { number } = attach()
    await userEvent.type(number, '378282246310005')
    expect(writeState(number.value, number.selectionStart!)).toBe('3782 822463 10005|')
  })
})

describe('brand and security code', () => {
  it('follows the brand: its code size and label, and no code field for Bancontact', async () => {
    const { number, securityCode, securityCodeLabel, securityCodeContainer } = attach()
    expect(securityCodeLabel.textContent).toBe('Security code')
    await userEvent.type(number, '3782')
    expect(securityCodeLabel.textContent).toBe('Security code (CID, 4 digits)')
    await userEvent.type(securityCode, '12345')
    expect(securityCode.value).toBe('1234')
    await userEvent.clear(number)
    await userEvent.type(number, '6703')
    expect(securityCodeContainer.hidden).toBe(true)
    expect(securityCode.value).toBe('')
    expect(fields!.values()).not.toHaveProperty('securityCode')
  })

  it('stops the number at the brand’s longest length', async () => {
    const { number } = attach()
    await userEvent.type(number, '55553412444411151')
    expect(number.value).toBe('5555 3412 4444 1115')
  })
})

describe('verdicts and accessibility', () => {
  it('flags hopeless input while typing and the rest on blur, with aria-invalid, aria-describedby and one announcement', async () => {
    const { number, expiry, errors, announcer } = attach()
    expect(number.getAttribute('aria-describedby')).toBe('number-error')
    await userEvent.type(number, '9')
    expect(number.getAttribute('aria-invalid')).toBe('true')
    expect(errors.number.textContent).toBe('This card type is not accepted.')
    expect(announcer.textContent).toBe('Card number: This card type is not accepted.')
    await userEvent.clear(number)
    await userEvent.type(number, '4111 1111 1111 1112')
    expect(errors.number.hidden).toBe(true)
    expect(number.hasAttribute('aria-invalid')).toBe(false)
    // Focus stays where the shopper is while typing; blur judges the field.
    expect(document.activeElement).toBe(number)
    await userEvent.click(expiry)
    expect(errors.number.textContent).toBe('Check the card number.')
    expect(announcer.textContent).toBe('Card number: Check the card number.')
  })

  it('does not judge an untouched field on blur', async () => {
    const { number, expiry, errors } = attach()
    number.focus()
    await userEvent.click(expiry)
    expect(errors.number.textContent).toBe('')
    expect(number.hasAttribute('aria-invalid')).toBe(false)
  })

  it('validate() shows every error and focuses the first field in error, announcing nothing (the page sums up)', async () => {
    const { number, expiry, securityCode, errors, announcer } = attach({ now: () => new Date('2026-11-22T12:00:00Z') })
    await userEvent.type(number, '4111111111111111')
    await userEvent.type(expiry, '0124')
    securityCode.focus()
    announcer.textContent = ''
    expect(fields!.validate()).toBe(false)
    expect(announcer.textContent).toBe('')
    expect(errors.expiry.textContent).toBe('This card has expired.')
    expect(errors.securityCode.textContent).toBe('Enter the security code.')
    expect(document.activeElement).toBe(expiry)
    await userEvent.clear(expiry)
    await userEvent.type(expiry, '0330')
    await userEvent.type(securityCode, '737')
    expect(fields!.validate()).toBe(true)
    expect(fields!.values()).toEqual({ number: '4111 1111 1111 1111', expiry: '03/30', securityCode: '737', holderName: '' })
  })

  it('speaks Dutch, and takes the shop’s own words for any message', async () => {
    const { number, errors } = attach({
      messages: mergeMessages(MESSAGES_NL, { errors: { number: { brand: 'Deze kaart nemen wij niet aan.' } } }),
    })
    await userEvent.type(number, '9')
    expect(errors.number.textContent).toBe('Deze kaart nemen wij niet aan.')
    await userEvent.clear(number)
    await userEvent.type(number, '41')
    fields!.validate()
    expect(errors.number.textContent).toBe('Het kaartnummer is niet compleet.')
  })

  it('hands callbacks verdicts and the brand, never a value', async () => {
    const changes: CardFieldChange[] = []
    const { number, expiry, securityCode } = attach({ onChange: (change) => changes.push(change) })
    await userEvent.type(number, '4111111111111111')
    await userEvent.type(expiry, '0330')
    await userEvent.type(securityCode, '737')
    const seen = JSON.stringify(changes)
    expect(changes.length).toBeGreaterThan(10)
    expect(changes.at(-1)).toMatchObject({ field: 'securityCode', brand: 'visa', verdict: { isValid: true } })
    for (const secret of ['4111', '1111', '0330', '03/30', '737']) expect(seen).not.toContain(secret)
  })
})

describe('auto-advance', () => {
  it('is off by default', async () => {
    const { number } = attach()
    await userEvent.type(number, '4111111111111111')
    expect(document.activeElement).toBe(number)
  })

  it('moves on when a field is complete and valid', async () => {
    const { number, expiry, securityCode } = attach({ autoAdvance: true })
    await userEvent.type(number, '555534124444111')
    expect(document.activeElement).toBe(number)
    await userEvent.type(number, '5')
    expect(document.activeElement).toBe(expiry)
    await userEvent.type(expiry, AHEAD)
    expect(document.activeElement).toBe(securityCode)
  })

  it('skips the code field when the brand has none (Bancontact)', async () => {
    const { number, expiry, holderName, securityCodeContainer } = attach({ autoAdvance: true })
    securityCodeContainer.append(form.querySelector('#cvc')!)
    await userEvent.type(number, '6703444444444449')
    expect(securityCodeContainer.hidden).toBe(true)
    // Bancontact numbers may have up to 19 digits: 16 is valid but not yet complete, so no advance.
    expect(document.activeElement).toBe(number)
    await userEvent.type(expiry, AHEAD)
    expect(document.activeElement).toBe(holderName)
  })
})

describe('autofill, composition, month and year apart', () => {
  it('takes an autofilled cc-exp with a four-digit year as MM/YY', async () => {
    const { expiry } = attach()
    // What a browser's autofill does: sets the value and fires `input` (no key, no beforeinput).
    expiry.value = '03/2030'
    expiry.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertReplacementText' }))
    expect(expiry.value).toBe('03/30')
  })

  it('splits a whole date autofilled into the month field between month and year', async () => {
    const month = input('month')
    const year = input('year')
    fields = attachCardFields({ fields: { number: input('number'), expiryMonth: month, expiryYear: year } })
    month.value = '03/2030'
    month.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertReplacementText' }))
    expect([month.value, year.value]).toEqual(['03', '2030'])
    expect(fields.values()).toMatchObject({ expiryMonth: '03', expiryYear: '2030' })
  })

  it('leaves an IME composition alone and formats once it ends', async () => {
    const { number } = attach()
    number.focus()
    number.dispatchEvent(new CompositionEvent('compositionstart', { bubbles: true }))
    number.value = '４１１１１'
    number.dispatchEvent(
      new InputEvent('input', { bubbles: true, isComposing: true, inputType: 'insertCompositionText', data: '４１１１１' }),
    )
    expect(number.value).toBe('４１１１１')
    number.dispatchEvent(new CompositionEvent('compositionend', { bubbles: true, data: '４１１１１' }))
    expect(number.value).toBe('4111 1')
  })

  it('types month and year apart, "4" becoming April', async () => {
    const month = input('month')
    const year = input('year')
    fields = attachCardFields({ fields: { number: input('number'), expiryMonth: month, expiryYear: year } })
    await userEvent.type(month, '4')
    await userEvent.type(year, '2031')
    expect([month.value, year.value]).toEqual(['04', '2031'])
  })
})

describe('clear, destroy, and mistakes in the call', () => {
  it('clear() empties the fields and their errors', async () => {
    const { number, errors } = attach()
    await userEvent.type(number, '9')
    fields!.clear()
    expect(number.value).toBe('')
    expect(errors.number.hidden).toBe(true)
    expect(fields!.brand()).toBeNull()
  })

  it('destroy() removes every listener and what it added', async () => {
    const { number } = attach()
    fields!.destroy()
    fields = undefined
    expect(number.hasAttribute('aria-describedby')).toBe(false)
    expect(number.hasAttribute('autocomplete')).toBe(false)
    await userEvent.type(number, '4111a')
    expect(number.value).toBe('4111a')
  })

  it('refuses a number input (no caret) and a half-given split expiry, naming the option', () => {
    const number = document.createElement('input')
    number.type = 'number'
    expect(() => attachCardFields({ fields: { number } })).toThrow(/fields\.number: a text input \(type=number keeps no caret\)/)
    expect(() => attachCardFields({ fields: { number: input('n'), expiryMonth: input('m') } })).toThrow(/fields\.expiryYear: required/)
  })
})

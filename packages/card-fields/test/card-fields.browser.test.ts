/**
 * card-fields in a real browser, with real key presses (the provider's keyboard, so the browser
 * fires its own beforeinput and input events): brand, verdicts, accessibility, messages,
 * auto-advance, autofill and composition, clear and destroy. The caret tables: caret-keys.browser.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { attachCardFields, mergeMessages, type CardFieldChange } from '../src/index.ts'
import { messages as MESSAGES_NL } from '../src/locales/nl.ts'
import { testCardExpiry } from '@card-jwe/testkit/test-cards'
import { useCardForm } from './card-form.ts'

/** An expiry always ahead of the clock, typed as MMYY (auto-advance needs a valid one). */
const AHEAD = `${testCardExpiry().month}${testCardExpiry().year.slice(2)}`

const { card, input, element, attach } = useCardForm()

describe('brand and security code', () => {
  it('works out the brand of text there without an input event: when attached, and again at validate()', async () => {
    const number = input('number', 'Card number')
    number.value = '3782 822463 10005' // typed before the page's script attached the fields
    const expiry = input('expiry', 'Expiry date')
    const securityCode = input('cvc')
    const securityCodeLabel = element('cvc-label')
    card.fields = attachCardFields({ fields: { number, expiry, securityCode }, securityCodeLabel })
    expect(card.fields.brand()?.type).toBe('american-express')
    expect(securityCodeLabel.textContent).toBe('Security code (CID, 4 digits)')
    number.value = '4111 1111 1111 1111' // put back by the browser, no event
    await userEvent.type(expiry, AHEAD)
    securityCode.value = '123'
    expect(card.fields.validate()).toBe(true)
    expect(card.fields.brand()?.type).toBe('visa')
  })

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
    expect(card.fields!.values()).not.toHaveProperty('securityCode')
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
    expect(card.fields!.validate()).toBe(false)
    expect(announcer.textContent).toBe('')
    expect(errors.expiry.textContent).toBe('This card has expired.')
    expect(errors.securityCode.textContent).toBe('Enter the security code.')
    expect(document.activeElement).toBe(expiry)
    await userEvent.clear(expiry)
    await userEvent.type(expiry, '0330')
    await userEvent.type(securityCode, '737')
    expect(card.fields!.validate()).toBe(true)
    expect(card.fields!.values()).toEqual({ number: '4111 1111 1111 1111', expiry: '03/30', securityCode: '737', holderName: '' })
  })

  it('speaks Dutch, and takes the shop’s own words for any message', async () => {
    const { number, errors } = attach({
      messages: mergeMessages(MESSAGES_NL, { errors: { number: { brand: 'Deze kaart nemen wij niet aan.' } } }),
    })
    await userEvent.type(number, '9')
    expect(errors.number.textContent).toBe('Deze kaart nemen wij niet aan.')
    await userEvent.clear(number)
    await userEvent.type(number, '41')
    card.fields!.validate()
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
    for (const secret of ['4111', '1111', '0330', '03/30', '2030', '"03"', '737']) expect(seen).not.toContain(secret)
    // No field that holds a value: card-jwe's expiry verdict also carries its month and year.
    const keys = new Set(changes.flatMap((change) => Object.keys(change.verdict)))
    expect([...keys].sort()).toEqual(['brand', 'candidates', 'field', 'isPotentiallyValid', 'isValid', 'rule'])
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
    securityCodeContainer.append(card.form.querySelector('#cvc')!)
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
    card.fields = attachCardFields({ fields: { number: input('number'), expiryMonth: month, expiryYear: year } })
    month.value = '03/2030'
    month.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertReplacementText' }))
    expect([month.value, year.value]).toEqual(['03', '2030'])
    expect(card.fields.values()).toMatchObject({ expiryMonth: '03', expiryYear: '2030' })
  })

  it('leaves an IME composition alone, then formats and judges its text once it ends', async () => {
    const changes: CardFieldChange[] = []
    const { number, securityCodeLabel } = attach({ onChange: (change) => changes.push(change) })
    number.focus()
    number.dispatchEvent(new CompositionEvent('compositionstart', { bubbles: true }))
    number.value = '４１１１１'
    number.dispatchEvent(
      new InputEvent('input', { bubbles: true, isComposing: true, inputType: 'insertCompositionText', data: '４１１１１' }),
    )
    expect(number.value).toBe('４１１１１')
    number.dispatchEvent(new CompositionEvent('compositionend', { bubbles: true, data: '４１１１１' }))
    expect(number.value).toBe('4111 1')
    // Its brand followed, and the shop heard of the change: the last input came while composing.
    expect(card.fields!.brand()?.type).toBe('visa')
    expect(securityCodeLabel.textContent).toBe('Security code (CVV, 3 digits)')
    expect(changes.at(-1)).toMatchObject({ field: 'number', brand: 'visa' })
  })

  it('types month and year apart, "4" becoming April', async () => {
    const month = input('month')
    const year = input('year')
    card.fields = attachCardFields({ fields: { number: input('number'), expiryMonth: month, expiryYear: year } })
    await userEvent.type(month, '4')
    await userEvent.type(year, '2031')
    expect([month.value, year.value]).toEqual(['04', '2031'])
  })
})

describe('clear, destroy, and mistakes in the call', () => {
  it('clear() empties the fields and their errors', async () => {
    const { number, errors } = attach()
    await userEvent.type(number, '9')
    card.fields!.clear()
    expect(number.value).toBe('')
    expect(errors.number.hidden).toBe(true)
    expect(card.fields!.brand()).toBeNull()
  })

  it('destroy() removes every listener and what it added', async () => {
    const { number } = attach()
    card.fields!.destroy()
    card.fields = undefined
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

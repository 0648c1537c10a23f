/**
 * An Arabic page is right to left, but a card number, an expiry and a security code read left to
 * right: card-fields gives those inputs `dir="ltr"`, so with real key presses the groups of the
 * number keep their order and the caret follows the typing, while the name follows the page.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { userEvent } from 'vitest/browser'
import { attachCardFields, type CardFields } from '../src/index.ts'
import { messages as arabic } from '../src/locales/ar.ts'

describe.each(['the document', 'the form'] as const)('in a right-to-left page (dir="rtl" on %s)', (where) => {
  /** A form in a page made right to left where the test says; all of it gone after the test. */
  function rightToLeftForm() {
    const form = document.body.appendChild(document.createElement('form'))
    ;(where === 'the document' ? document.documentElement : form).dir = 'rtl'
    const attached: CardFields[] = []
    onTestFinished(() => {
      for (const fields of attached) fields.destroy()
      form.remove()
      document.documentElement.removeAttribute('dir')
    })
    const input = (id: string) => form.appendChild(Object.assign(document.createElement('input'), { id, type: 'text' }))
    return { form, input, attached }
  }

  function attach() {
    const { form, input, attached } = rightToLeftForm()
    const inputs = { number: input('number'), expiry: input('expiry'), securityCode: input('cvc'), holderName: input('name') }
    const errors = { number: form.appendChild(document.createElement('p')) }
    const fields = attachCardFields({ fields: inputs, errors, messages: arabic })
    attached.push(fields)
    return { ...inputs, errors, fields }
  }
  const direction = (element: HTMLElement) => getComputedStyle(element).direction

  it('number, expiry and code read left to right; the name follows the page', () => {
    const { number, expiry, securityCode, holderName } = attach()
    expect([number, expiry, securityCode].map(direction)).toEqual(['ltr', 'ltr', 'ltr'])
    expect(direction(holderName)).toBe('rtl')
  })

  it('typed key by key, the number groups left to right with the caret after the last digit', async () => {
    const { number, expiry, errors, fields } = attach()
    await userEvent.type(number, '4111111111111111')
    expect(number.value).toBe('4111 1111 1111 1111')
    expect([number.selectionStart, number.selectionEnd]).toEqual([19, 19])
    await userEvent.type(expiry, '0330')
    expect(expiry.value).toBe('03/30')
    expect(expiry.selectionStart).toBe(5)
    // Backspace after a gap takes the digit before it, in the digits' own order.
    number.focus()
    number.setSelectionRange(5, 5)
    await userEvent.keyboard('{Backspace}')
    expect(number.value).toBe('4111 1111 1111 111')
    expect(number.selectionStart).toBe(3)
    fields.validate()
    expect(errors.number.textContent).toBe(arabic.errors.number.length)
  })

  it('a direction the shop set stays; destroy() takes away only what card-fields added', () => {
    const { input } = rightToLeftForm()
    const own = input('own-number')
    own.dir = 'auto'
    const expiry = input('own-expiry')
    const fields = attachCardFields({ fields: { number: own, expiry } })
    expect([own.dir, expiry.dir]).toEqual(['auto', 'ltr'])
    fields.destroy()
    expect([own.getAttribute('dir'), expiry.hasAttribute('dir')]).toEqual(['auto', false])
  })
})
